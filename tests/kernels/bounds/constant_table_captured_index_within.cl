//pass
//--global_size=64 --local_size=64 --size out=256 --checks=all --arg n=0x00000001
/* The fixed form of constant_table_captured_index_past_end_race: n = 1. */
constant int c_arr[] = {-3, 56};
__kernel void k(__global int *out, int n) {
  int i = get_global_id(0);
  out[i] = c_arr[n];
}
