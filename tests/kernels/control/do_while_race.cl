//xfail:NOT_ALL_VERIFIED
//--local_size=16 --global_size=64
//write-write race on a\[
kernel void dw(global int *a) {
  size_t i = get_global_id(0);
  int k = 0;
  do {
    a[i * 3 + k] = k;
    ++k;
  } while (k < 4);
}
