//xfail:NOT_ALL_VERIFIED
//--local_size=32 --global_size=32
//race on buf\[
kernel void smooth(global float *x) {
  local float buf[32];
  size_t l = get_local_id(0);
  buf[l] = x[l];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int it = 0; it < 4; ++it) {
    buf[l] = 0.5f * (buf[l] + buf[(l + 1) % 32]);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  x[l] = buf[l];
}
