//xfail:NOT_ALL_VERIFIED
//--local_size=16 --global_size=64 --size tmp=64
//write-write race on tmp\[
/* Each work-item fills its slot of tmp and the group then copies over tmp with no barrier between:
   the copy can overwrite a slot while its owner is still writing it. */
kernel void async(global const int *in, global int *out, local int *tmp) {
  tmp[get_local_id(0)] = 0;
  event_t e = async_work_group_copy(tmp, in + get_group_id(0) * 16, 16, 0);
  wait_group_events(1, &e);
  out[get_global_id(0)] = tmp[get_local_id(0)];
}
