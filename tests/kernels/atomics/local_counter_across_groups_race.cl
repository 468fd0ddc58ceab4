//unknown
//--local_size=32 --global_size=64 --size out=256
//unknown: possible race .*depending on the value atomic_inc returns
/* GPUVerify atomics/refined_atomic_abstraction/bad_local_counters: a counter in local memory is one per
   work-group, so its values are distinct only within a group — two groups both write out[0]. A witness
   needs the counter's values (open); never `verified`. */
kernel void append(global int *out) {
  local uint n;
  if (get_local_id(0) == 0)
    n = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  uint k = atomic_inc(&n);
  out[k] = (int)get_global_id(0);
}
