//xfail:NOT_ALL_VERIFIED
//--local_size=64 --global_size=256 --size in=1024 --size out=1024
//possible write-read race on count
/* The racy form of barrier_by_broadcast_value: the barrier that publishes the count is missing, so the
   other work-items read it while work-item 0 writes it — the race is the first defect (and the reads may
   then differ: no uniform-read fact hides it). */
kernel void gate(global const int *in, global int *out) {
  local int count;
  if (get_local_id(0) == 0)
    count = in[get_group_id(0)];
  int c = count;
  if (c > 0) {
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = c;
  }
}
