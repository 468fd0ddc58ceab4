//xfail:NOT_ALL_VERIFIED
//--local_size=32 --global_size=64
//race on s\[
kernel void shorts(global short *s) {
  size_t i = get_global_id(0);
  s[2 * i] = 1;
  if (i < 63)
    *(global int *)(s + 2 * i + 1) = 7;
}
