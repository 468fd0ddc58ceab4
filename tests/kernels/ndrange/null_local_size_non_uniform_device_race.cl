//xfail:NOT_ALL_VERIFIED
//--global_size=16 --flags=-cl-std=CL3.0 --device-non-uniform=yes
//possible write-write race on out\[
/* ndrange/null_local_size_uniform_device on a device with non-uniform work-group support: with a NULL local
   size the implementation may choose, say, 6, and the last group has 4 work-items; get_local_size(0) is 4
   there, so group 2's slots 8..11 are also group 1's. */
kernel void slots(global int *out) {
  uint g = get_group_id(0) * get_local_size(0) + get_local_id(0);
  out[g] = (int)get_global_id(0);
}
