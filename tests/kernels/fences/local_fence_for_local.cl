//pass
//--local_size=32 --global_size=32
kernel void right_fence(global int *out, local int *tmp) {
  size_t l = get_local_id(0);
  tmp[l] = 1;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[l] = tmp[31 - l];
}
