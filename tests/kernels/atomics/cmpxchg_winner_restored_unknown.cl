//unknown
//--local_size=16 --global_size=64
/* As cmpxchg_winner_reads, but a winner puts the old value back with atomic_xchg in the same interval,
   so a second call can succeed: two winners may write the group's slot. */
kernel void winner(global int *out, local int *count) {
  size_t l = get_local_id(0);
  if (l == 0)
    *count = 5;
  barrier(CLK_LOCAL_MEM_FENCE);
  int before = *count;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (atomic_cmpxchg(count, before, before + 1) == before) {
    out[get_group_id(0)] = (int)l;
    atomic_xchg(count, before);
  }
}
