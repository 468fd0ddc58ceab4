//xfail:NOT_ALL_VERIFIED
//--local_size=64 --global_size=256
//race on count
kernel void counter(global int *count) {
  *count += 1;
}
