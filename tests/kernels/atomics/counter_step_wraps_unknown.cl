//unknown
//--local_size=4 --global_size=4
//unknown: possible race .*depending on the value atomic_add returns
/* atomic_add(c, 0x80000000) returns old values that repeat every two calls: work-items 0 and 2 get the
   same one and write one element. Never `verified`; a witness needs the counter's values (open). */
kernel void slots(global uint *c, global int *out) {
  uint k = atomic_add(c, 0x80000000u);
  out[k] = (int)get_global_id(0);
}
