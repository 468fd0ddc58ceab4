//pass
//--local_size=8,4 --global_size=16,8 --arg shape=0x0000001000000010
/* A by-value struct gives the row width and pitch (16 and 16): rows written by different work-items
   never overlap because the pitch is at least the width. */
typedef struct { int width; int pitch; } Shape;
kernel void fill(global int *img, Shape shape) {
  size_t x = get_global_id(0), y = get_global_id(1);
  if (x < shape.width)
    img[y * shape.pitch + x] = (int)(x + y);
}
