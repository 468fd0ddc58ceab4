//pass
//--local_size=8 --global_size=16
/* A loop with barriers whose trip count is an uncaptured scalar (any value is a real launch): the
   shared-iteration encoding (docs/semantics.md row 28). Each work-item writes its own slot, a barrier, then
   reads its neighbour's, and a second barrier ends the iteration before the next write: verified for
   every n. */
kernel void rounds(global int *out, int n) {
  local int s[8];
  size_t l = get_local_id(0);
  int acc = 0;
  for (int t = 0; t < n; ++t) {
    s[l] = t + (int)l;
    barrier(CLK_LOCAL_MEM_FENCE);
    acc += s[(l + 1) % 8];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[get_global_id(0)] = acc;
}
