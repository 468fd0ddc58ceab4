//pass
//--local_size=8,2 --global_size=16,2 --size out=1024
/* The fixed twin of unused_dimension_race: both dimensions in the address, so only the same work-item
   writes one element (docs/semantics.md row 36). */
kernel void columns(global int *out) {
  out[get_global_id(1) * get_global_size(0) + get_global_id(0)] = (int)get_global_id(1);
}
