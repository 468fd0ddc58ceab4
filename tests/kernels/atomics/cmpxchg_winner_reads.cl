//pass
//--local_size=16 --global_size=64
/* Every work-item of a group tries to bump a local counter from the value all of them read before the
   barrier; exactly one succeeds. A failing atomic_cmpxchg writes nothing, and only one can succeed, so
   the winner's plain read of the counter meets no write, and it alone writes its group's slot. */
kernel void winner(global int *out, local int *count) {
  size_t l = get_local_id(0);
  if (l == 0)
    *count = 5;
  barrier(CLK_LOCAL_MEM_FENCE);
  int before = *count;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (atomic_cmpxchg(count, before, before + 1) == before)
    out[get_group_id(0)] = *count;
}
