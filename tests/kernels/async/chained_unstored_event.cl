//pass
//--local_size=64 --global_size=8192
/* GPUVerify async_work_group_copy/pass/test3: the second copy joins the first one's event, and its own
   return value is dropped; waiting for the first event's variable completes both copies. */
kernel void foo(global float *p, global float *q) {
  local float my_p[64];
  local float my_q[64];
  event_t joint_handle = async_work_group_copy(my_p, p + 64 * get_group_id(0), 64, 0);
  async_work_group_copy(my_q, q + 64 * get_group_id(0), 64, joint_handle);
  wait_group_events(1, &joint_handle);
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  p[get_global_id(0)] = 2 * my_p[get_local_id(0)];
  q[get_global_id(0)] = 2 * my_q[get_local_id(0)];
}
