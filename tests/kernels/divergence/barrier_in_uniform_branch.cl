//pass
//--local_size=32 --global_size=64
kernel void uniform(global int *out, local int *tmp, int flag) {
  size_t l = get_local_id(0);
  tmp[l] = 1;
  if (flag > 0)
    barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tmp[l];
}
