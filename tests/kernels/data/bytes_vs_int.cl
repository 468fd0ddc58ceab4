//xfail:NOT_ALL_VERIFIED
//--local_size=64 --global_size=256
//race on b\[
kernel void bytes(global uchar *b) {
  size_t i = get_global_id(0);
  if (i % 4 == 0)
    *(global int *)(b + i) = 0;
  else
    b[i] = 1;
}
