//pass
//--local_size=8,8 --global_size=32,32
kernel void transpose(global const float *in, global float *out) {
  size_t x = get_global_id(0), y = get_global_id(1);
  out[x * 32 + y] = in[y * 32 + x];
}
