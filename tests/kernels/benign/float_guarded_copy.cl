//pass
//--local_size=64 --global_size=128 --size B=4 --size A=64
//warning: possible benign write-write race on B\[0\]
/* GPUVerify pointertests/test_copy_between_memory_spaces: every work-item copies A[0] to B[0] when A[0] > 0
   — a floating-point comparison, decided exactly (IEEE 754 on the bits read; A has no captured bytes, so
   any contents) — and all store one value: a benign race. */
kernel void copy(global const float *A, global float *B) {
  if (A[0] > 0.0f)
    B[0] = A[0];
}
