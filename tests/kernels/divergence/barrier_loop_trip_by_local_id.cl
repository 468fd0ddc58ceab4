//xfail:NOT_ALL_VERIFIED
//--local_size=8 --global_size=16
//barrier.*reached by
/* A loop with a barrier whose trip count differs between work-items of one group (odd local ids run one
   more iteration): at the last iteration only some reach the barrier. The shared-iteration encoding
   compares both work-items at the same iteration. */
kernel void rounds(global int *out, int n) {
  size_t l = get_local_id(0);
  int acc = 0;
  for (int t = 0; t < n + (int)(l & 1); ++t) {
    acc += t;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[get_global_id(0)] = acc;
}
