//pass
//--local_size=16 --global_size=64 --size tmp=64
/* The group copies its 16 inputs into local memory together and waits for the copy: every read of tmp
   after wait_group_events sees the copied values, so there is no race. */
kernel void async(global const int *in, global int *out, local int *tmp) {
  event_t e = async_work_group_copy(tmp, in + get_group_id(0) * 16, 16, 0);
  wait_group_events(1, &e);
  out[get_global_id(0)] = tmp[get_local_id(0)];
}
