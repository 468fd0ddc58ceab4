//xfail:NOT_ALL_VERIFIED
//--local_size=64 --global_size=256 --arg n=0x00001000
//race on a\[
kernel void grid_stride(global float *a, int n) {
  for (int i = (int)get_global_id(0); i < n; i += 128)
    a[i] *= 2.0f;
}
