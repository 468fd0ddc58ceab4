//pass
//--global_size=64 --local_size=64 --size out=256 --checks=all
/* The fixed form of private_array_constant_index_past_end_race: a[3], and the array is split as before (into SSA values). */
__kernel void k(__global int *out) {
  int i = get_global_id(0);
  int a[4] = {0, 1, 2, 3};
  if (i == 7)
    a[3] = i;
  out[i] = a[0] + a[3];
}
