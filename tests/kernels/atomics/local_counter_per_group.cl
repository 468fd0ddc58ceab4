//pass
//--local_size=32 --global_size=64 --size out=256 --checks=races,divergence
/* The fixed form of local_counter_across_groups_race: the slots are in local memory, one array per
   group, where the group's counter values are distinct.
   Races only: the counter's values are not modelled, so slots[k] < 64 is not proven (bounds: unknown). */
kernel void append(global int *out) {
  local uint n;
  local int slots[64];
  if (get_local_id(0) == 0)
    n = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  uint k = atomic_inc(&n);
  slots[k] = (int)get_global_id(0);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = slots[get_local_id(0)];
}
