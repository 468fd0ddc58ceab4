//xfail:NOT_ALL_VERIFIED
//--local_size=32 --global_size=32
//race on t\[
kernel void blelloch(global int *data, local int *t) {
  size_t l = get_local_id(0);
  t[2 * l] = data[2 * l];
  t[2 * l + 1] = data[2 * l + 1];
  uint offset = 1;
  for (uint d = 32; d > 0; d >>= 1) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l < d) {
      uint ai = offset * (2 * l + 1) - 1, bi = offset * (2 * l + 2) - 1;
      t[bi] += t[ai];
    }
    offset *= 2;
  }
  if (l == 0)
    t[63] = 0;
  for (uint d = 1; d < 64; d *= 2) {
    offset >>= 1;
    if (l < d) {
      uint ai = offset * (2 * l + 1) - 1, bi = offset * (2 * l + 2) - 1;
      int x = t[ai];
      t[ai] = t[bi];
      t[bi] += x;
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  data[2 * l] = t[2 * l];
  data[2 * l + 1] = t[2 * l + 1];
}
