//xfail:NOT_ALL_VERIFIED
//--local_size=8 --global_size=16
//possible write-read race on s\[
/* barrier_loop_open_trip.cl without the barrier that ends an iteration: the read of the neighbour's slot
   at the end of iteration t meets the neighbour's write at the start of iteration t + 1 (the interval that
   wraps round the back edge). */
kernel void rounds(global int *out, int n) {
  local int s[8];
  size_t l = get_local_id(0);
  int acc = 0;
  for (int t = 0; t < n; ++t) {
    s[l] = t + (int)l;
    barrier(CLK_LOCAL_MEM_FENCE);
    acc += s[(l + 1) % 8];
  }
  out[get_global_id(0)] = acc;
}
