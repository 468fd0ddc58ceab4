// Hand-written sample capture: GPUVerify's documentation example, a local-memory reduction.
#define N 64
kernel void reduce(global int *data, local int *scratch) {
  int l = get_local_id(0);
  scratch[l] = data[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = N / 2; s > 0; s >>= 1) {
    if (l < s)
      scratch[l] += scratch[l + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0)
    data[get_group_id(0)] = scratch[0];
}
