//pass
//--local_size=32 --global_size=64 --flags=-cl-std=CL2.0
/* An OpenCL 2.0 work-group collective, reached by the whole group: its value is open (it combines other
   work-items' values), and only work-item 0 of each group writes its group's slot. */
kernel void sums(global const int *in, global int *out) {
  int s = work_group_reduce_add(in[get_global_id(0)]);
  if (get_local_id(0) == 0)
    out[get_group_id(0)] = s;
}
