//xfail:NOT_ALL_VERIFIED
//--local_size=64 --global_size=256
//possible write-read race on tmp
/* A barrier does not complete an async copy; only wait_group_events on its event does. */
kernel void foo(global const float *in, global float *out) {
  local float tmp[64];
  event_t e = async_work_group_copy(tmp, in + 64 * get_group_id(0), 64, 0);
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  out[get_global_id(0)] = tmp[63 - get_local_id(0)];
  wait_group_events(1, &e);
}
