//xfail:NOT_ALL_VERIFIED
//--local_size=32 --global_size=64
//possible write-write race on A
/* A captured buffer is never NULL (GPUVerify null_pointers/null_pointer_assignment_equal): the else
   branch runs, and every work-item writes A[0]. */
kernel void f(global int *A) {
  int gid = get_global_id(0);
  if (A == 0)
    A[gid] = gid;
  else
    A[0] = gid;
}
