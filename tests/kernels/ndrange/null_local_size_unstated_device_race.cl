//xfail:NOT_ALL_VERIFIED
//--global_size=16 --flags=-cl-std=CL3.0
//possible write-write race on out\[
/* ndrange/null_local_size_uniform_device on a device that does not say whether it supports non-uniform
   work-groups (an OpenCL 2.x device has the support and no query for it): they are possible. */
kernel void slots(global int *out) {
  uint g = get_group_id(0) * get_local_size(0) + get_local_id(0);
  out[g] = (int)get_global_id(0);
}
