//pass
//--local_size=32 --global_size=32
kernel void both(global int *buf, local int *tmp) {
  size_t l = get_local_id(0);
  buf[l] = 1;
  tmp[l] = 2;
  barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
  buf[31 - l] += tmp[31 - l];
}
