//pass
//--local_size=32 --global_size=128
/* One work-item of the whole launch claims a global flag with atomic_cmpxchg(flag, 0, 1); only one call
   can change it, so the plain write of the winner's id meets no other write. */
kernel void claim(global int *flag, global int *winner) {
  if (atomic_cmpxchg(flag, 0, 1) == 0)
    *winner = (int)get_global_id(0);
}
