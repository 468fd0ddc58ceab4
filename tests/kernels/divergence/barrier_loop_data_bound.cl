//unknown
//--local_size=8 --global_size=8
//unknown: .*contains a barrier and its trip count is not a small constant
/* Precision gap: a loop with a barrier whose trip count comes from memory (no constant bound) is refused
   with the loop named — a sound `unknown`; deciding it needs the shared-iteration encoding of loops with
   barriers (not built yet). */
kernel void rounds(global const int *count, global int *out, local int *tmp) {
  size_t l = get_local_id(0);
  for (int i = 0; i < count[0]; ++i) {
    tmp[l] = i;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[l] += tmp[(l + 1) % 8];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}
