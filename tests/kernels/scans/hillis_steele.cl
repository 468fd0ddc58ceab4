//pass
//--local_size=64 --global_size=64
kernel void scan(global const int *in, global int *out, local int *a, local int *b) {
  size_t l = get_local_id(0);
  a[l] = in[l];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint d = 1; d < 64; d <<= 1) {
    b[l] = l >= d ? a[l] + a[l - d] : a[l];
    barrier(CLK_LOCAL_MEM_FENCE);
    a[l] = b[l];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[l] = a[l];
}
