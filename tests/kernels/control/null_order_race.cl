//xfail:NOT_ALL_VERIFIED
//--local_size=32 --global_size=64
//possible write-write race on A\[0\] with i = [1-9]
/* GPUVerify's null_pointers/null_pointer_greater: a buffer lies above NULL (address 0), so `a > 0` is
   `a != NULL`; with the uncaptured i non-zero, a is NULL and every work-item writes A[0]. */
kernel void f(int i, global int *A) {
  global int *a = i == 0 ? A : 0;
  int gid = get_global_id(0);
  if (a > (global int *)0)
    A[gid] = gid;
  else
    A[0] = gid;
}
