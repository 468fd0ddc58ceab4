//xfail:NOT_ALL_VERIFIED
//--local_size=16 --global_size=128
//race on part\[
/* matvec_local.cl without the barrier between storing the partial sums and the first reduction step:
   work-item 0 may read part[8] before work-item 8 has stored it. */
kernel void matvec(global const float *A, global const float *x, global float *y) {
  local float part[16];
  size_t l = get_local_id(0), row = get_group_id(0);
  float acc = 0.0f;
  for (int k = 0; k < 4; ++k)
    acc += A[row * 64 + k * 16 + l] * x[k * 16 + l];
  part[l] = acc;
  for (uint s = 8; s > 0; s >>= 1) {
    if (l < s)
      part[l] += part[l + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0)
    y[row] = part[0];
}
