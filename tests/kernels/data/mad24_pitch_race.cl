//xfail:NOT_ALL_VERIFIED
//--global_size=64,16 --local_size=16,4 --arg step=0x00000020 --arg offset=0x00000000
//write-write race on dst\[
/* The captured pitch (32) is narrower than a row (64 work-items): row y's second half is row y+1's first,
   and the two work-items store different values there. */
kernel void copy(global const uchar *src, global uchar *dst, int step, int offset) {
  int x = get_global_id(0), y = get_global_id(1);
  int index = mad24(y, step, x + offset);
  dst[index] = (uchar)(x + 3 * y);
}
