//xfail:NOT_ALL_VERIFIED
//--local_size=8,4 --global_size=16,8 --arg shape=0x0000000800000010
//write-write race on img\[
/* The same kernel with pitch 8 < width 16: the end of row y is the start of row y + 1, so work-items
   (x, y) and (x - 8, y + 1) write the same element. Race freedom is decided by the struct's value. */
typedef struct { int width; int pitch; } Shape;
kernel void fill(global int *img, Shape shape) {
  size_t x = get_global_id(0), y = get_global_id(1);
  if (x < shape.width)
    img[y * shape.pitch + x] = (int)(x + y);
}
