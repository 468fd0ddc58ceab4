//xfail:NOT_ALL_VERIFIED
//--local_size=64 --global_size=256 --data in=iota:256
//race on out\[
/* The per-group bins are merged into the global histogram with a plain `+=` instead of atomic_add:
   work-item l of every group updates out[l], and groups are not ordered by the barrier. */
kernel void histogram(global const int *in, global int *out, local int *bins) {
  size_t l = get_local_id(0);
  if (l < 16)
    bins[l] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_inc(&bins[in[get_global_id(0)] & 15]);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l < 16)
    out[l] += bins[l];
}
