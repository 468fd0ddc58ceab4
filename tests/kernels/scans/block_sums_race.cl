//xfail:NOT_ALL_VERIFIED
//--local_size=32 --global_size=128
//race on data\[
/* The block end is read from the next group's first element instead of the group's own last one:
   a barrier cannot order that read against another group's update of data[i]. */
kernel void add_offsets(global int *data, global const int *sums, global int *ends) {
  size_t i = get_global_id(0), g = get_group_id(0);
  if (g > 0)
    data[i] += sums[g - 1];
  barrier(CLK_GLOBAL_MEM_FENCE);
  if (get_local_id(0) == 31 && g < 3)
    ends[g] = data[i + 1];
}
