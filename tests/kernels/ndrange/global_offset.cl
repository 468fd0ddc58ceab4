//pass
//--local_size=16 --global_size=64 --global_offset=16
kernel void offset(global int *a) {
  size_t i = get_global_id(0);
  a[i - 16] = (int)i;
}
