//pass
//--local_size=16 --global_size=64
kernel void v4(global const float *in, global float *out) {
  size_t i = get_global_id(0);
  float4 v = vload4(i, in);
  vstore4(v * 2.0f, i, out);
}
