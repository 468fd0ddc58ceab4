// Tiled transpose of an n × n matrix through local memory (8 × 8 tiles, padded against bank conflicts).
kernel void transpose(global const float *in, global float *out, int n) {
  local float tile[8][9];
  size_t lx = get_local_id(0), ly = get_local_id(1);
  size_t gx = get_group_id(0), gy = get_group_id(1);
  tile[ly][lx] = in[(gy * 8 + ly) * n + gx * 8 + lx];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[(gx * 8 + ly) * n + gy * 8 + lx] = tile[lx][ly];
}
