//xfail:NOT_ALL_VERIFIED
//--local_size=32 --global_size=128
//race on flag
kernel void flagged(global int *flag, global int *out) {
  if (get_global_id(0) == 0)
    atomic_xchg(flag, 1);
  else
    out[get_global_id(0)] = flag[0];
}
