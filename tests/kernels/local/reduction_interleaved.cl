//pass
//--local_size=32 --global_size=128
/* Interleaved-addressing tree reduction: at stride s the work-items with l % 2s == 0 add element l + s,
   which no active work-item writes in that step; a barrier ends every step. */
kernel void reduce(global const int *in, global int *out, local int *t) {
  size_t l = get_local_id(0);
  t[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = 1; s < 32; s <<= 1) {
    if (l % (2 * s) == 0)
      t[l] += t[l + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0)
    out[get_group_id(0)] = t[0];
}
