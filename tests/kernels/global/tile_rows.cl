//pass
//--local_size=16 --global_size=64 --size out=1024
/* The fixed twin of tile_rows_overlap_race: a stride of 16, so rows of different groups never meet, and the
   dependence test (docs/semantics.md row 36) settles every pair without the solver. */
kernel void rows(global int *out) {
  out[get_group_id(0) * 16 + get_local_id(0)] = (int)get_global_id(0);
}
