//pass
//--local_size=32 --global_size=32
kernel void smooth(global float *x) {
  local float buf[2][32];
  size_t l = get_local_id(0);
  buf[0][l] = x[l];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int it = 0; it < 4; ++it) {
    int src = it & 1, dst = src ^ 1;
    buf[dst][l] = 0.5f * (buf[src][l] + buf[src][(l + 1) % 32]);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  x[l] = buf[0][l];
}
