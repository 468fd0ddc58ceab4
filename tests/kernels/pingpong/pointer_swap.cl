//pass
//--local_size=32 --global_size=64
/* Ping-pong between two local buffers by swapping pointers after each step; the barrier makes the step
   that wrote `dst` complete before the next step reads it as `src`. */
kernel void smooth(global float *x) {
  local float a[32], b[32];
  local float *src = a, *dst = b;
  size_t l = get_local_id(0);
  a[l] = x[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int it = 0; it < 3; ++it) {
    dst[l] = 0.5f * (src[l] + src[(l + 1) % 32]);
    barrier(CLK_LOCAL_MEM_FENCE);
    local float *t = src; src = dst; dst = t;
  }
  x[get_global_id(0)] = src[l];
}
