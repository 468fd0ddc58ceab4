//pass
//--local_size=16 --global_size=64 --size tmp=64
/* The same with a barrier between the work-items' writes and the group's copy: ordered. */
kernel void async(global const int *in, global int *out, local int *tmp) {
  tmp[get_local_id(0)] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  event_t e = async_work_group_copy(tmp, in + get_group_id(0) * 16, 16, 0);
  wait_group_events(1, &e);
  out[get_global_id(0)] = tmp[get_local_id(0)];
}
