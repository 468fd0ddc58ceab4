//pass
//--local_size=64 --global_size=256
/* The second copy joins the first one's event (OpenCL 1.2 §6.12.10): waiting for it completes both. */
kernel void foo(global float *p, global float *q) {
  local float my_p[64];
  local float my_q[64];
  event_t e = async_work_group_copy(my_p, p + 64 * get_group_id(0), 64, 0);
  e = async_work_group_copy(my_q, q + 64 * get_group_id(0), 64, e);
  wait_group_events(1, &e);
  p[get_global_id(0)] = my_p[get_local_id(0)] + my_q[get_local_id(0)];
}
