//xfail:NOT_ALL_VERIFIED
//--local_size=64 --global_size=8192
//possible write-read race on my_q
/* A copy that joins an event after the wait on it is not completed by that wait. */
kernel void foo(global float *p, global float *q) {
  local float my_p[64];
  local float my_q[64];
  event_t e = async_work_group_copy(my_p, p + 64 * get_group_id(0), 64, 0);
  wait_group_events(1, &e);
  async_work_group_copy(my_q, q + 64 * get_group_id(0), 64, e);
  p[get_global_id(0)] = my_p[get_local_id(0)] + my_q[get_local_id(0)];
}
