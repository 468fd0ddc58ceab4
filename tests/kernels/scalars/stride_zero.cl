//xfail:NOT_ALL_VERIFIED
//--local_size=32 --global_size=64 --arg stride=0x00000000
//possible write-write race on a\[0\]
kernel void strided(global int *a, int stride) {
  size_t i = get_global_id(0);
  a[i * stride] = (int)i;
}
