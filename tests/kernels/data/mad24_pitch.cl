//pass
//--global_size=64,16 --local_size=16,4 --arg step=0x00000040 --arg offset=0x00000000
/* OpenCV's addressing: a row pitch and an offset combined with mad24 (exact for 24-bit operands).
   Each work-item writes its own byte of a 64-byte-pitch image. */
kernel void copy(global const uchar *src, global uchar *dst, int step, int offset) {
  int x = get_global_id(0), y = get_global_id(1);
  int index = mad24(y, step, x + offset);
  dst[index] = (uchar)(x + 3 * y);
}
