//pass
//--local_size=16 --global_size=64 --size tmp=64
/* The same with disjoint ranges (a stride of 16): each group writes its own 16 elements. */
kernel void async(global const int *in, global int *out, local int *tmp) {
  tmp[get_local_id(0)] = in[get_global_id(0)] * 2;
  barrier(CLK_LOCAL_MEM_FENCE);
  event_t e = async_work_group_copy(out + get_group_id(0) * 16, tmp, 16, 0);
  wait_group_events(1, &e);
}
