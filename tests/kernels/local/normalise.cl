//pass
//--local_size=64 --global_size=256
/* Divides every value by its group's sum: a reduction with a barrier before each step, then a final
   barrier so that all work-items read the finished t[0]. */
kernel void normalise(global const float *in, global float *out, local float *t) {
  size_t l = get_local_id(0), i = get_global_id(0);
  float v = in[i];
  t[l] = v;
  for (uint s = 32; s > 0; s >>= 1) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l < s)
      t[l] += t[l + s];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  out[i] = v / t[0];
}
