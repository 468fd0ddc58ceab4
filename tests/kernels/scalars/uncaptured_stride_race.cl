//xfail:NOT_ALL_VERIFIED
//--local_size=32 --global_size=64
//possible write-write race on a\[0\] with stride = 0
/* `stride` is not captured: any value is a real launch (docs/contract.md §5), so the race that stride 0 makes is a
   defect, and its witness names the value. No other stride makes two indices meet (|stride| < 2^31,
   i < 64: i * stride * 4 does not wrap around 2^64). */
kernel void strided(global int *a, int stride) {
  size_t i = get_global_id(0);
  a[i * stride] = (int)i;
}
