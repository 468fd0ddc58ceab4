//pass
//--local_size=8,4 --global_size=16,8 --arg shape=0x0000000800000010
/* Fixed pair of struct_pitch_race.cl: the row pitch is the NDRange's width, and the struct's members only
   bound the work, so no value of `shape` makes two work-items write one element: verified with the
   captured value and with --open=scalars. */
typedef struct { int width; int height; } Shape;
kernel void struct_pitch_fixed(global int *img, Shape shape) {
  size_t x = get_global_id(0), y = get_global_id(1);
  if (x < shape.width && y < shape.height)
    img[y * get_global_size(0) + x] = (int)(x + y);
}
