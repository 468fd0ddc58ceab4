//xfail:NOT_ALL_VERIFIED
//--local_size=64 --global_size=768 --size out=4096 --checks=races,divergence
//possible write-write race on out
/* GPUVerify atomics/refined_atomic_abstraction/bad_local_counters: a __local counter that nothing sets is
   one per group and starts at any value, so work-items of two groups can get one result and write one
   element. Unlike local_counter_across_groups_race (the counter set to 0 first), every result is
   possible, so the witness is exact.
   Races only: the counter starts open, and an open start also takes out[k] past out (a real out-of-bounds
   write the default checks report, whose witness names the start this header cannot give Oclgrind). */
kernel void append(local uint *n, global uint *out) {
  uint k = atomic_inc(n);
  out[k] = (uint)get_global_id(0);
}
