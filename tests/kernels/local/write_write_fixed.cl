//pass
//--local_size=8 --global_size=8
kernel void write_write(global int *out, local int *tmp) {
  size_t l = get_local_id(0);
  if (l % 2 == 0)
    tmp[l / 2] = (int)l;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[l] = tmp[l / 2];
}
