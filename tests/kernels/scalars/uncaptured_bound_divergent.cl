//xfail:NOT_ALL_VERIFIED
//--local_size=32 --global_size=64
//barrier may be reached by non-uniform control flow with n = ([1-9]|[12][0-9]|3[01])\b
/* Barrier divergence that depends on the uncaptured `n` only: every n in 1..31 splits a group of 32. */
kernel void bounded(global int *out, local int *tmp, uint n) {
  size_t l = get_local_id(0);
  tmp[l] = 1;
  if (l < n)
    barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tmp[l];
}
