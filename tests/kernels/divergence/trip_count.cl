//unknown
//--local_size=8 --global_size=8
//unknown: .*contains a barrier and its trip count is not a small constant
/* Precision gap: a loop with a barrier and a work-item-dependent trip count is refused (a sound `unknown`);
   reporting the divergence needs the shared-iteration encoding of loops with barriers (not built yet). */
kernel void trips(global int *out, local int *tmp) {
  size_t l = get_local_id(0);
  for (int i = 0; i < (int)(l % 2) + 1; ++i) {
    tmp[l] = i;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[l] = tmp[l];
}
