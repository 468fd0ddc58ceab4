//pass
//--local_size=8 --global_size=16
/* Fixed pair of barrier_loop_trip_by_local_id.cl: the trip count depends on the group, not on the
   work-item, so every work-item of a group reaches the barrier equally often. */
kernel void rounds(global int *out, int n) {
  size_t l = get_local_id(0);
  int acc = 0;
  for (int t = 0; t < n + (int)(get_group_id(0) & 1); ++t) {
    acc += t + (int)l;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[get_global_id(0)] = acc;
}
