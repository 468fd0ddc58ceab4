//xfail:NOT_ALL_VERIFIED
//--local_size=16 --global_size=64
//write-write race on out\[
kernel void v4(global const float *in, global float *out) {
  size_t i = get_global_id(0);
  float4 v = vload4(i, in);
  vstore4(v, 0, out + i * 2);
}
