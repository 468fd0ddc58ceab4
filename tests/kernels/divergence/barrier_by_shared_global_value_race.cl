//xfail:NOT_ALL_VERIFIED
//--local_size=64 --global_size=256 --size flag=2048
//possible .*race on flag\[0\]
/* The racy form of barrier_by_shared_global_value: work-item 0 of the launch also writes flag[0], which
   work-items of other groups read with no ordering at all — the race comes first. */
kernel void gate(global int *flag) {
  int f = flag[0];
  if (get_global_id(0) == 0)
    flag[0] = 1;
  if (f == 0)
    barrier(CLK_GLOBAL_MEM_FENCE);
  flag[1 + get_global_id(0)] = f;
}
