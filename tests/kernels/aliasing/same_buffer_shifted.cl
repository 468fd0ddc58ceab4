//xfail:NOT_ALL_VERIFIED
//--local_size=32 --global_size=64 --alias src=dst
//race on dst\[
kernel void add_one(global int *dst, global const int *src) {
  size_t i = get_global_id(0);
  dst[i] = src[(i + 1) % 64] + 1;
}
