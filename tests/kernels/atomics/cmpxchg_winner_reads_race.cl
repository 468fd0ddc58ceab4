//xfail:NOT_ALL_VERIFIED
//--local_size=16 --global_size=64
//race on count
/* As cmpxchg_winner_reads, but every work-item reads the counter in the interval of the calls: the
   winner's store is a write, and it meets the other work-items' reads. */
kernel void winner(global int *out, local int *count) {
  size_t l = get_local_id(0);
  if (l == 0)
    *count = 5;
  barrier(CLK_LOCAL_MEM_FENCE);
  int before = *count;
  barrier(CLK_LOCAL_MEM_FENCE);
  int won = atomic_cmpxchg(count, before, before + 1) == before;
  out[get_global_id(0)] = won + *count;
}
