//xfail:NOT_ALL_VERIFIED
//--local_size=32 --global_size=64
//race on (a|b)\[
/* pointer_swap.cl with the barrier after each step missing: work-item l overwrites the buffer that
   work-item l - 1 may still be reading as src[(l - 1 + 1) % 32] from the previous step. */
kernel void smooth(global float *x) {
  local float a[32], b[32];
  local float *src = a, *dst = b;
  size_t l = get_local_id(0);
  a[l] = x[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int it = 0; it < 3; ++it) {
    dst[l] = 0.5f * (src[l] + src[(l + 1) % 32]);
    local float *t = src; src = dst; dst = t;
  }
  x[get_global_id(0)] = src[l];
}
