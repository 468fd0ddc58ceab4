//pass
//--global_size=64 --local_size=64 --size out=256 --checks=all
/* The fixed form of constant_table_unrolled_past_end_race: k < 2. */
constant int c_arr[] = {-3, 56};
__kernel void k(__global int *out) {
  int i = get_global_id(0);
  int s = 0;
  for (int k = 0; k < 2; k++)
    s += c_arr[k];
  out[i + s - 53] = s;
}
