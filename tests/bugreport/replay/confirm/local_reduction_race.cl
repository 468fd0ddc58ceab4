//confirmed
//--local_size=64 --global_size=128 --size tmp=256 --data in=iota:128 --data out=int:0,0
/* The corpus' reduction without the barrier in its loop (tests/kernels/local/reduction_race.cl): the race
   on tmp shows in any run, so Oclgrind sees it with the captured data. */
kernel void reduction(global const int *in, global int *out, local int *tmp) {
  size_t l = get_local_id(0);
  tmp[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t s = get_local_size(0) / 2; s > 0; s >>= 1) {
    if (l < s)
      tmp[l] += tmp[l + s];
  }
  if (l == 0)
    out[get_group_id(0)] = tmp[0];
}
