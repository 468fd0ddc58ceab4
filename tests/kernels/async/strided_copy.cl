//pass
//--local_size=16 --global_size=64 --size tmp=64
/* A strided gather into local memory (every 4th input from the group's start), then each work-item
   reads its element after the wait. */
kernel void async(global const int *in, global int *out, local int *tmp) {
  event_t e = async_work_group_strided_copy(tmp, in + get_group_id(0), 16, 4, 0);
  wait_group_events(1, &e);
  out[get_global_id(0)] = tmp[get_local_id(0)];
}
