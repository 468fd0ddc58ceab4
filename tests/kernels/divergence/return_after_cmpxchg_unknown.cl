//unknown
//--local_size=16 --global_size=64 --size lock=4 --size out=256
//possible divergence
/* Breaks row 30's condition: the winner of the atomic_cmpxchg returns before the barrier, so the barrier
   is not reached whenever the branch is (barrier divergence in the group of the winner). Whether a
   work-item wins is open: the verdict must not be `verified`. */
kernel void k(volatile global int *lock, global int *out, local int *tile) {
  int l = get_local_id(0);
  if (atomic_cmpxchg(lock, 0, 1) == 0)
    return;
  tile[l] = l;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tile[(l + 1) % 16];
}
