//unknown
//--local_size=8 --global_size=8
//unknown: .*contains a barrier and its trip count is not known
/* Precision gap: a loop with a barrier whose trip count is read from memory at every iteration (the load
   may alias `out`, so it stays in the loop) has no trip count the shared-iteration encoding (row 28) can
   use: refused with the loop named — a sound `unknown`. */
kernel void rounds(global const int *count, global int *out, local int *tmp) {
  size_t l = get_local_id(0);
  for (int i = 0; i < count[0]; ++i) {
    tmp[l] = i;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[l] += tmp[(l + 1) % 8];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}
