//pass
//--local_size=32 --global_size=128
/* Each group folds its values into its own slot with atomic_min; after the barrier one work-item of the
   group reads that slot. Only work-items of the same group touch a slot, so the barrier orders them. */
kernel void group_min(global const int *in, global int *mins, global int *out) {
  size_t g = get_group_id(0);
  atomic_min(&mins[g], in[get_global_id(0)]);
  barrier(CLK_GLOBAL_MEM_FENCE);
  if (get_local_id(0) == 0)
    out[g] = mins[g];
}
