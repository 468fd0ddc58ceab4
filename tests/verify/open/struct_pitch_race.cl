//pass
//--local_size=8,4 --global_size=16,8 --arg shape=0x0000001000000010
/* Racy pair of --open=scalars for a struct passed by value: with the captured pitch 16 = width
   every row is its own, but a pitch below the width makes the end of row y the start of row y + 1. The
   witness names the members by their names (debug info): "with shape.width = … and shape.pitch = …". */
typedef struct { int width; int pitch; } Shape;
kernel void struct_pitch_race(global int *img, Shape shape) {
  size_t x = get_global_id(0), y = get_global_id(1);
  if (x < shape.width)
    img[y * shape.pitch + x] = (int)(x + y);
}
