//pass
//--global_size=64 --local_size=64 --size out=256 --checks=all
/* The fixed form of constant_table_constant_index_past_end_race: the read past the end lies on a path no
   work-item takes, and the one taken is folded to the table's value. */
constant int c_arr[] = {-3, 56};
__kernel void k(__global int *out) {
  int i = get_global_id(0);
  out[i] = i >= 64 ? c_arr[5] : c_arr[1];
}
