//xfail:NOT_ALL_VERIFIED
//--local_size=32 --global_size=64 --flags=-cl-std=CL2.0
//work_group_reduce_add may be reached by non-uniform control flow
/* A work-group collective reached by half of the group only (OpenCL 2.0 §6.13.15: it must be
   encountered by every work-item of the group). */
kernel void sums(global const int *in, global int *out) {
  if (get_local_id(0) < 16) {
    int s = work_group_reduce_add(in[get_global_id(0)]);
    out[get_global_id(0)] = s;
  }
}
