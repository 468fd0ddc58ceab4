//xfail:NOT_ALL_VERIFIED
//--local_size=32 --global_size=64
//race on p\[
typedef struct { float x, y, z; int id; } Particle;
kernel void move(global Particle *p) {
  size_t i = get_global_id(0);
  p[i].x += 1.0f;
  p[(i + 1) % 64].x = (float)i;
}
