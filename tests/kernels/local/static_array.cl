//pass
//--local_size=16 --global_size=16
kernel void static_array(global int *out) {
  local int tile[16];
  size_t l = get_local_id(0);
  tile[l] = (int)l * 2;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[l] = tile[15 - l];
}
