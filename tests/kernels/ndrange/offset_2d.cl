//pass
//--local_size=4,4 --global_size=16,16 --global_offset=4,8
kernel void off2(global int *a) {
  size_t x = get_global_id(0) - 4, y = get_global_id(1) - 8;
  a[y * 16 + x] = 1;
}
