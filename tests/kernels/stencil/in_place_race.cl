//xfail:NOT_ALL_VERIFIED
//--local_size=16 --global_size=64
//race on a\[
kernel void stencil(global float *a) {
  size_t i = get_global_id(0);
  if (i > 0 && i < 63)
    a[i] = 0.5f * (a[i - 1] + a[i + 1]);
}
