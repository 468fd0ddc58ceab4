//pass
//--local_size=32 --global_size=128
/* Second phase of a multi-block scan: each work-item adds the total of all earlier blocks (read-only
   `sums`) to its own element; after a barrier, the last work-item of a group publishes the block end. */
kernel void add_offsets(global int *data, global const int *sums, global int *ends) {
  size_t i = get_global_id(0), g = get_group_id(0);
  if (g > 0)
    data[i] += sums[g - 1];
  barrier(CLK_GLOBAL_MEM_FENCE);
  if (get_local_id(0) == 31)
    ends[g] = data[i];
}
