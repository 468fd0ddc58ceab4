//pass
//--local_size=16 --global_size=64
kernel void w(global int *a) {
  size_t i = get_global_id(0);
  int k = 0;
  while (k < 4) {
    a[i * 4 + k] = k;
    ++k;
  }
}
