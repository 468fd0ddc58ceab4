//pass
//--local_size=64 --global_size=768 --size out=768 --size n=4 --size slots=256 --checks=races,divergence
/* The fixed form of local_counter_open_across_groups_race_witness: the slots are local too, one array per
   group, where the group's results are distinct whatever the counter started at.
   Races only: n starts open, and slots[k] past slots is a real out-of-bounds write. */
kernel void append(local uint *n, local uint *slots, global uint *out) {
  uint k = atomic_inc(n);
  slots[k] = (uint)get_local_id(0);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = slots[get_local_id(0)];
}
