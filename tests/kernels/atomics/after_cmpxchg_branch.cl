//pass
//--local_size=16 --global_size=64 --size lock=4 --size seen=256 --size out=256
/* The fixed form of after_cmpxchg_branch_race: one element each after the branch. */
kernel void k(volatile global int *lock, global int *seen, global int *out) {
  int i = get_global_id(0);
  if (atomic_cmpxchg(lock, 0, 1) == 0)
    seen[i] = 1;
  out[i] = i;
}
