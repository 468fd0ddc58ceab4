//pass
//--local_size=8,8 --global_size=32,32 --arg n=0x00000020
#define TILE 8
kernel void matmul(global const float *A, global const float *B, global float *C, int n) {
  local float As[TILE][TILE];
  local float Bs[TILE][TILE];
  size_t tx = get_local_id(0), ty = get_local_id(1);
  size_t col = get_global_id(0), row = get_global_id(1);
  float acc = 0.0f;
  for (int t = 0; t < n / TILE; ++t) {
    As[ty][tx] = A[row * n + t * TILE + tx];
    Bs[ty][tx] = B[(t * TILE + ty) * n + col];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < TILE; ++k)
      acc += As[ty][k] * Bs[k][tx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  C[row * n + col] = acc;
}
