// C (n × n) = A (n × k) · B (k × n) with 8 × 8 tiles in local memory.
kernel void matmul(global const float *A, global const float *B, global float *C, int n, int k) {
  local float As[8][8];
  local float Bs[8][8];
  size_t tx = get_local_id(0), ty = get_local_id(1);
  size_t col = get_global_id(0), row = get_global_id(1);
  float acc = 0.0f;
  for (int t = 0; t < k / 8; ++t) {
    As[ty][tx] = A[row * k + t * 8 + tx];
    Bs[ty][tx] = B[(t * 8 + ty) * n + col];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int i = 0; i < 8; ++i)
      acc += As[ty][i] * Bs[i][tx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  C[row * n + col] = acc;
}
