//pass
//--local_size=32 --global_size=80 --flags=-cl-std=CL2.0
/* OpenCL 2.0 non-uniform work-groups: 80 work-items in groups of 32, the last group has 16. Each group
   reverses its own part of the array through local memory, using its real size. */
kernel void reverse(global int *data) {
  local int tmp[32];
  size_t l = get_local_id(0), n = get_local_size(0);
  tmp[l] = data[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  data[get_global_id(0)] = tmp[n - 1 - l];
}
