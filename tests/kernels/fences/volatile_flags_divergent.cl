//xfail:NOT_ALL_VERIFIED
//--local_size=64 --global_size=128 --size p=4
//barrier reached by work-items of one group with different arguments
/* GPUVerify inter_group_and_barrier_flag_tests/fail/bad_read_then_write: the flags come from a volatile
   private variable (kept in memory by Clang), whose value is the last one stored to it — local id 0 passes
   CLK_LOCAL_MEM_FENCE, the others 0. OpenCL C 3.0 §6.15.8: the flags must be the same for all work-items
   of the group. */
kernel void flags(local int *p, global int *out) {
  volatile int x;
  x = get_local_id(0) == 0 ? CLK_LOCAL_MEM_FENCE : 0;
  int y = p[0];
  barrier(x);
  if (get_local_id(0) == 1)
    p[0] = 0;
  out[get_global_id(0)] = y;
}
