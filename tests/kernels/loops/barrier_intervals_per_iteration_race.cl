//xfail:NOT_ALL_VERIFIED
//--local_size=8 --global_size=16
//possible write-read race on s\[|possible read-write race on s\[
/* barrier_intervals_per_iteration.cl without the third barrier: two an iteration, the read of iteration t
   in interval 2t + 2 and the write of iteration t + 1 in interval 2(t + 1), the same one. The two sites' k
   (2 and 0) differ by a multiple of the barriers an iteration: the interval test must keep them. */
kernel void rounds(global int *out, int n) {
  local int s[8];
  size_t l = get_local_id(0);
  int acc = 0;
  for (int t = 0; t < n; ++t) {
    s[l] = t + (int)l;
    barrier(CLK_LOCAL_MEM_FENCE);
    barrier(CLK_LOCAL_MEM_FENCE);
    acc += s[(l + 1) % 8];
  }
  out[get_global_id(0)] = acc;
}
