//xfail:NOT_ALL_VERIFIED
//--local_size=16 --global_size=64 --size tmp=64
//race on out\[
/* Each group copies its 16 results out to global memory, but the groups' ranges overlap by one element
   (a stride of 15): two groups' copies write out[15], out[30], … — nothing orders different groups. */
kernel void async(global const int *in, global int *out, local int *tmp) {
  tmp[get_local_id(0)] = in[get_global_id(0)] * 2;
  barrier(CLK_LOCAL_MEM_FENCE);
  event_t e = async_work_group_copy(out + get_group_id(0) * 15, tmp, 16, 0);
  wait_group_events(1, &e);
}
