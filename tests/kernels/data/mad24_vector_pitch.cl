//pass
//--global_size=16,16 --local_size=16,4 --arg step=0x00000040 --arg offset=0x00000000
/* OpenCV's row filter computes four addresses at once: mad24 on int4, lane by lane (docs/semantics.md row
   17). Each work-item writes its own four bytes of a 64-byte-pitch image. */
kernel void copy4(global uchar *dst, int step, int offset) {
  int x = get_global_id(0), y = get_global_id(1);
  int4 addr = mad24((int4)y, (int4)step, (int4)(4 * x + offset) + (int4)(0, 1, 2, 3));
  dst[addr.x] = (uchar)y;
  dst[addr.y] = (uchar)y;
  dst[addr.z] = (uchar)y;
  dst[addr.w] = (uchar)y;
}
