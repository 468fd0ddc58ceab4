//pass
//--local_size=32 --global_size=64
kernel void neighbour(global int *out, local int *tmp) {
  size_t l = get_local_id(0);
  tmp[l] = (int)l;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tmp[(l + 1) % get_local_size(0)];
}
