//pass
//--local_size=8 --global_size=16
/* Three barriers an iteration, the loop's trip count an uncaptured scalar (not unrolled): the write of
   iteration t + 1 lies in interval 3(t + 1), the neighbour's read of iteration t in interval 3t + 2, so
   they never share one. The intervals are integer sums c + 3·iteration + k, and two sites whose k differ by
   less than 3 (and not by a multiple of it) are dropped from a same-group query (docs/semantics.md row 36b). */
kernel void rounds(global int *out, int n) {
  local int s[8];
  size_t l = get_local_id(0);
  int acc = 0;
  for (int t = 0; t < n; ++t) {
    s[l] = t + (int)l;
    barrier(CLK_LOCAL_MEM_FENCE);
    barrier(CLK_LOCAL_MEM_FENCE);
    acc += s[(l + 1) % 8];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[get_global_id(0)] = acc;
}
