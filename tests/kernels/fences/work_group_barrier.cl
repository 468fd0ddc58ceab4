//pass
//--local_size=32 --global_size=32 --flags=-cl-std=CL2.0
kernel void wgb(global int *out, local int *tmp) {
  size_t l = get_local_id(0);
  tmp[l] = 1;
  work_group_barrier(CLK_LOCAL_MEM_FENCE);
  out[l] = tmp[31 - l];
}
