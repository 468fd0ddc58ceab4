//pass
//--local_size=4 --global_size=4
/* The fixed form of counter_step_wraps_unknown: a step of 2^30 repeats only after 4 calls, and there
   are 4 work-items. */
kernel void slots(global uint *c, global int *out) {
  uint k = atomic_add(c, 0x40000000u);
  out[k] = (int)get_global_id(0);
}
