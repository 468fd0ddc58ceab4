//xfail:NOT_ALL_VERIFIED
//--local_size=64 --global_size=64
//race on a\[
kernel void scan(global const int *in, global int *out, local int *a) {
  size_t l = get_local_id(0);
  a[l] = in[l];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint d = 1; d < 64; d <<= 1) {
    if (l >= d)
      a[l] += a[l - d];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[l] = a[l];
}
