//xfail:NOT_ALL_VERIFIED
//--local_size=16 --global_size=64 --size lock=4 --size seen=256 --size out=128
//possible write-write race on out\[
/* Whether a work-item's atomic_cmpxchg succeeds is open, but every work-item reaches the store after the
   branch: the race there (two work-items per element) is definite, not `unknown`. */
kernel void k(volatile global int *lock, global int *seen, global int *out) {
  int i = get_global_id(0);
  if (atomic_cmpxchg(lock, 0, 1) == 0)
    seen[i] = 1;
  out[i / 2] = i;
}
