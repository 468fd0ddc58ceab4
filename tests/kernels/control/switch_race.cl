//xfail:NOT_ALL_VERIFIED
//--local_size=16 --global_size=16
//write-write race on a\[
kernel void sw(global int *a) {
  size_t i = get_global_id(0);
  switch (i % 4) {
  case 0: a[i] = 0; break;
  case 1: a[i - 1] = 10; break;
  default: a[i] = 20; break;
  }
}
