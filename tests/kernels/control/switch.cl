//pass
//--local_size=16 --global_size=16
kernel void sw(global int *a) {
  size_t i = get_global_id(0);
  switch (i % 4) {
  case 0: a[i] = 0; break;
  case 1: a[i] = 10; break;
  default: a[i] = 20; break;
  }
}
