//unknown
//--local_size=16 --global_size=64 --size lock=4 --size out=256
//possible divergence
/* Breaks row 30's condition: a path from the branch leaves the loop (break) before the barrier, so the
   barrier is not reached whenever the branch is. Whether a work-item's atomic_cmpxchg wins is open: the
   verdict must not be `verified`. */
kernel void k(volatile global int *lock, global int *out, local int *tile) {
  int l = get_local_id(0);
  for (int i = 0; i < 4; ++i) {
    if (atomic_cmpxchg(lock, i, i + 1) == i)
      break;
    tile[l] = i;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[get_global_id(0)] = tile[l];
}
