//pass
//--local_size=8 --global_size=8
kernel void trips(global int *out, local int *tmp) {
  size_t l = get_local_id(0);
  for (int i = 0; i < 3; ++i) {
    tmp[l] = i;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[l] = tmp[l];
}
