//xfail:NOT_ALL_VERIFIED
//--global_size=16,16 --local_size=16,4 --arg step=0x00000020 --arg offset=0x00000000
//write-write race on dst\[
/* As data/mad24_vector_pitch with a captured pitch (32) narrower than a row (64 bytes): row y's second
   half is row y+1's first, and the two rows store different values there. With the lanes taken in the
   wrong order, or one lane's product for all, the race would be missed or misplaced. */
kernel void copy4(global uchar *dst, int step, int offset) {
  int x = get_global_id(0), y = get_global_id(1);
  int4 addr = mad24((int4)y, (int4)step, (int4)(4 * x + offset) + (int4)(0, 1, 2, 3));
  dst[addr.x] = (uchar)y;
  dst[addr.y] = (uchar)y;
  dst[addr.z] = (uchar)y;
  dst[addr.w] = (uchar)y;
}
