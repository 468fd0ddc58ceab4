//xfail:NOT_ALL_VERIFIED
//--local_size=64 --global_size=8192
//wait_group_events reached by work-items of one group with different arguments
/* GPUVerify async_work_group_copy/fail/test11: the event waited for depends on the work-item. */
kernel void foo(global float *p, global float *q) {
  local float my_p[64];
  local float my_q[64];
  event_t joint_handle_p = async_work_group_copy(my_p, p + 64 * get_group_id(0), 64, 0);
  event_t joint_handle_q = async_work_group_copy(my_q, q + 64 * get_group_id(0), 64, 0);
  event_t *joint_handle_ptr = &joint_handle_p;
  if (get_local_id(0) > 13)
    joint_handle_ptr = &joint_handle_q;
  wait_group_events(1, joint_handle_ptr);
}
