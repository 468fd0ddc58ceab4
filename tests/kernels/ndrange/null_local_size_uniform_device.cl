//pass
//--global_size=16 --flags=-cl-std=CL3.0 --device-non-uniform=no
/* The program allows non-uniform work-groups (OpenCL C 3.0), but the device says it has no support for them
   (CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT false, in the sidecar): a NULL local size is then a divisor of 16,
   every group is full, and group * local size + local id is a different slot for every work-item
   (docs/semantics.md row 2b). PoCL 3.1 is such a device; the soundness fuzzer's fz1006_10 was this launch. */
kernel void slots(global int *out) {
  uint g = get_group_id(0) * get_local_size(0) + get_local_id(0);
  out[g] = (int)get_global_id(0);
}
