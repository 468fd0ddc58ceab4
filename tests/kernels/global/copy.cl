//pass
//--local_size=64 --global_size=1024
kernel void copy(global const float *in, global float *out) {
  size_t i = get_global_id(0);
  out[i] = in[i] * 2.0f;
}
