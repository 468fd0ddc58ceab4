//pass
//--local_size=64 --global_size=256
/* Range of a group's values in local memory: work-item 0 initialises, everyone does atomic_min and
   atomic_max, and a barrier separates each phase from the next. */
kernel void range(global const int *in, global int *out) {
  local int lo, hi;
  size_t l = get_local_id(0);
  if (l == 0) { lo = INT_MAX; hi = INT_MIN; }
  barrier(CLK_LOCAL_MEM_FENCE);
  int v = in[get_global_id(0)];
  atomic_min(&lo, v);
  atomic_max(&hi, v);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l == 0)
    out[get_group_id(0)] = hi - lo;
}
