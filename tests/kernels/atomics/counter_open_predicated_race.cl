//xfail:NOT_ALL_VERIFIED
//--local_size=64 --global_size=768 --size out=4096 --checks=races,divergence
//possible write-write race on out
/* GPUVerify atomics/refined_atomic_abstraction/predication: the counter has no captured bytes (it starts
   at any value), so the work-item that skips the call and writes out[12] can meet one whose atomic_inc
   returned 12. The witness is real: the counter started at 12 and that work-item counted first.
   Races only: the counter starts open, and an open start also takes out[k] past out (a real out-of-bounds
   write the default checks report, whose witness names the start this header cannot give Oclgrind). */
kernel void slot(global uint *counter, global int *out) {
  uint k = 12;
  if (get_global_id(0) != 13)
    k = atomic_inc(counter);
  out[k] = (int)get_global_id(0);
}
