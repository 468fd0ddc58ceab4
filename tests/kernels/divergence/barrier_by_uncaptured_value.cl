//xfail:NOT_ALL_VERIFIED
//--local_size=64 --global_size=64 --size B=256
//barrier
/* GPUVerify divergence/race_and_divergence: whether a work-item reaches the barrier depends on its own
   element of A, which has no captured bytes (any contents): one zero and one non-zero element diverge. */
kernel void foo(global const int *restrict A, global int *restrict B) {
  int tmp = A[get_global_id(0)];
  if (tmp == 0)
    barrier(CLK_GLOBAL_MEM_FENCE);
  B[get_global_id(0)] = tmp;
}
