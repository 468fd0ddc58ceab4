//xfail:NOT_ALL_VERIFIED
//--local_size=32 --global_size=128
//race on t\[
/* The activity test uses l % s instead of l % 2s: at s = 1 every work-item adds its right neighbour,
   so work-item l reads t[l + 1] while work-item l + 1 is updating it. */
kernel void reduce(global const int *in, global int *out, local int *t) {
  size_t l = get_local_id(0);
  t[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = 1; s < 32; s <<= 1) {
    if (l % s == 0 && l + s < 32)
      t[l] += t[l + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0)
    out[get_group_id(0)] = t[0];
}
