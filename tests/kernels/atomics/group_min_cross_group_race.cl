//xfail:NOT_ALL_VERIFIED
//--local_size=32 --global_size=128
//race on mins
/* All groups fold into one slot: the barrier orders a group's own atomics before its plain read, but
   work-items of other groups may still be doing atomic_min on mins[0] when the read happens. */
kernel void group_min(global const int *in, global int *mins, global int *out) {
  size_t g = get_group_id(0);
  atomic_min(&mins[0], in[get_global_id(0)]);
  barrier(CLK_GLOBAL_MEM_FENCE);
  if (get_local_id(0) == 0)
    out[g] = mins[0];
}
