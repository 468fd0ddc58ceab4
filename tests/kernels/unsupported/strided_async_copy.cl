//unknown
//--local_size=16 --global_size=64
//unknown: .*async_work_group
kernel void async(global const int *in, global int *out, local int *tmp) {
  event_t e = async_work_group_strided_copy(tmp, in + get_group_id(0), 16, 4, 0);
  wait_group_events(1, &e);
  out[get_global_id(0)] = tmp[get_local_id(0)];
}
