//pass
//--local_size=16 --global_size=64
kernel void stencil(global const float *in, global float *out) {
  local float tile[18];
  size_t g = get_global_id(0), l = get_local_id(0);
  tile[l + 1] = in[g];
  if (l == 0)
    tile[0] = g == 0 ? 0.0f : in[g - 1];
  if (l == 15)
    tile[17] = g == 63 ? 0.0f : in[g + 1];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[g] = tile[l] + tile[l + 1] + tile[l + 2];
}
