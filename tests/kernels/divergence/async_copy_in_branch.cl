//xfail:NOT_ALL_VERIFIED
//--local_size=32 --global_size=64
//async_work_group_copy may be reached by non-uniform control flow
/* An async copy reached by half of the group. */
kernel void half_group(global const int *in, global int *out) {
  local int tmp[32];
  if (get_local_id(0) < 16) {
    event_t e = async_work_group_copy(tmp, in + 32 * get_group_id(0), 32, 0);
    wait_group_events(1, &e);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tmp[get_local_id(0)];
}
