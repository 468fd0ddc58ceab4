//pass
//--local_size=64 --global_size=256
/* The fixed form of wait_subset_race: both events are waited for. */
kernel void foo(global float *p, global float *q) {
  local float my_p[64];
  local float my_q[64];
  event_t handles[2];
  handles[0] = async_work_group_copy(my_p, p + 64 * get_group_id(0), 64, 0);
  handles[1] = async_work_group_copy(my_q, q + 64 * get_group_id(0), 64, 0);
  wait_group_events(2, handles);
  p[get_global_id(0)] = 2 * my_p[get_local_id(0)];
  q[get_global_id(0)] = 2 * my_q[get_local_id(0)];
}
