//xfail:NOT_ALL_VERIFIED
//--local_size=4 --global_size=4 --size data=16 --size scratch=16
//async_work_group_copy reached by work-items of one group with different arguments
/* Oclgrind async_copy_divergent: the last work-item asks for a copy of one element, the others of four
   (OpenCL 1.2 §6.12.10: every work-item must pass the same arguments). */
kernel void async_copy_divergent(global int *data, local int *scratch) {
  int i = get_local_id(0);
  size_t size = get_local_size(0);
  if (i == size - 1)
    size = 1;
  event_t event = async_work_group_copy(scratch, data, size, 0);
  wait_group_events(1, &event);
  data[get_local_size(0) - i - 1] = scratch[i];
}
