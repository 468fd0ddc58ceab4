//pass
//--local_size=64 --global_size=256
/* The fixed form of barrier_not_wait_race: the wait comes before the read. */
kernel void foo(global const float *in, global float *out) {
  local float tmp[64];
  event_t e = async_work_group_copy(tmp, in + 64 * get_group_id(0), 64, 0);
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  wait_group_events(1, &e);
  out[get_global_id(0)] = tmp[63 - get_local_id(0)];
}
