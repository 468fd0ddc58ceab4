//xfail:NOT_ALL_VERIFIED
//--local_size=64 --global_size=1024
//possible (write-read|read-write) race on a\[
kernel void shift(global int *a) {
  size_t i = get_global_id(0);
  if (i > 0)
    a[i] = a[i - 1];
}
