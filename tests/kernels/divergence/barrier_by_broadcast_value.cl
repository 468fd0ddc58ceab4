//pass
//--local_size=64 --global_size=256 --size in=1024 --size out=1024
/* GPUVerify barrier_intervals/test3: work-item 0 stores a count to local memory, a barrier publishes it,
   and every work-item reads it back and decides whether to reach the next barrier. The value is open (read
   from memory another work-item writes), but two work-items of one group read one place in one barrier
   interval: the same value unless a race comes first (docs/semantics.md row 26) — so the barrier is
   reached by all or by none. */
kernel void gate(global const int *in, global int *out) {
  local int count;
  if (get_local_id(0) == 0)
    count = in[get_group_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  int c = count;
  if (c > 0) {
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = c;
  }
}
