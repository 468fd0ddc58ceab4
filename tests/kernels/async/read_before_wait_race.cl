//xfail:NOT_ALL_VERIFIED
//--local_size=16 --global_size=64 --size tmp=64
//race on tmp\[
/* The read of tmp comes before wait_group_events: the group's copy may still be writing it. */
kernel void async(global const int *in, global int *out, local int *tmp) {
  event_t e = async_work_group_copy(tmp, in + get_group_id(0) * 16, 16, 0);
  out[get_global_id(0)] = tmp[get_local_id(0)];
  wait_group_events(1, &e);
}
