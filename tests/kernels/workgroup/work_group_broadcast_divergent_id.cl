//xfail:NOT_ALL_VERIFIED
//--local_size=32 --global_size=64 --flags=-cl-std=CL2.0
//work_group_broadcast reached by work-items of one group with different arguments
/* work_group_broadcast's local id must be the same for the whole group; here each work-item names its
   own neighbour. */
kernel void spread(global const int *in, global int *out) {
  size_t l = get_local_id(0);
  out[get_global_id(0)] = work_group_broadcast(in[get_global_id(0)], (l + 1) % 32);
}
