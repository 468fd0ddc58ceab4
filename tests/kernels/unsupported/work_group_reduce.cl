//unknown
//--local_size=32 --global_size=64 --flags=-cl-std=CL2.0
//unknown: .*work_group_reduce
/* An OpenCL 2.0 work-group collective: it synchronises the group like a barrier, which the encoder does
   not model, so the verdict is unknown. */
kernel void sums(global const int *in, global int *out) {
  int s = work_group_reduce_add(in[get_global_id(0)]);
  if (get_local_id(0) == 0)
    out[get_group_id(0)] = s;
}
