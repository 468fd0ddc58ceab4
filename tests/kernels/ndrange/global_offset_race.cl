//xfail:NOT_ALL_VERIFIED
//--local_size=16 --global_size=64 --global_offset=16
//write-write race on a\[
kernel void offset(global int *a) {
  size_t i = get_global_id(0);
  a[(i - 16) / 2] = (int)i;
}
