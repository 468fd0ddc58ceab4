//pass
//--local_size=32 --global_size=64
typedef struct { float x, y, z; int id; } Particle;
kernel void move(global Particle *p) {
  size_t i = get_global_id(0);
  p[i].x += 1.0f;
  p[i].id = (int)i;
}
