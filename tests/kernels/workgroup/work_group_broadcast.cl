//pass
//--local_size=32 --global_size=64 --flags=-cl-std=CL2.0
/* work_group_broadcast from work-item 3 of each group: one id for the whole group. */
kernel void spread(global const int *in, global int *out) {
  out[get_global_id(0)] = work_group_broadcast(in[get_global_id(0)], 3);
}
