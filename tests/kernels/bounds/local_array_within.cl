//pass
//--global_size=128 --local_size=64 --size out=512 --checks=all
/* The fixed form of local_array_past_end_race: one slot more. */
__kernel void shift(__global int *out) {
  __local int tile[65];
  int l = get_local_id(0);
  tile[l + 1] = l;
  if (l == 0)
    tile[0] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tile[l];
}
