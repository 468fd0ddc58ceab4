//xfail:NOT_ALL_VERIFIED
//--local_size=64 --global_size=256
//race on t\[0\]
/* The final barrier is missing: the last step (work-item 0 writing t[0]) is not ordered before the other
   work-items read t[0] to divide by the sum. */
kernel void normalise(global const float *in, global float *out, local float *t) {
  size_t l = get_local_id(0), i = get_global_id(0);
  float v = in[i];
  t[l] = v;
  for (uint s = 32; s > 0; s >>= 1) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l < s)
      t[l] += t[l + s];
  }
  out[i] = v / t[0];
}
