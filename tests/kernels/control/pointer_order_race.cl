//xfail:NOT_ALL_VERIFIED
//--local_size=32 --global_size=64
//possible write-write race on A\[0\]
/* An ordering of two pointers into one buffer is decided by their offsets (C99 6.5.8): work-items 32..63
   take the else branch and all write A[0]. */
kernel void f(global int *A) {
  int gid = get_global_id(0);
  if (A + gid < A + 32)
    A[gid] = gid;
  else
    A[0] = gid;
}
