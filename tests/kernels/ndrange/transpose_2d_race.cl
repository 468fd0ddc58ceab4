//xfail:NOT_ALL_VERIFIED
//--local_size=8,8 --global_size=32,32
//write-write race on out\[
kernel void transpose(global const float *in, global float *out) {
  size_t x = get_global_id(0), y = get_global_id(1);
  out[x * 31 + y] = in[y * 32 + x];
}
