//pass
//--local_size=32 --global_size=32
kernel void right_fence(global int *buf) {
  size_t l = get_local_id(0);
  buf[l] = 1;
  barrier(CLK_GLOBAL_MEM_FENCE);
  buf[31 - l] += 1;
}
