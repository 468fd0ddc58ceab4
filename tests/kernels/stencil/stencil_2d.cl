//pass
//--local_size=8,8 --global_size=32,32
kernel void blur(global const float *in, global float *out) {
  int x = (int)get_global_id(0), y = (int)get_global_id(1);
  float s = 0.0f;
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx) {
      int xx = clamp(x + dx, 0, 31), yy = clamp(y + dy, 0, 31);
      s += in[yy * 32 + xx];
    }
  out[y * 32 + x] = s / 9.0f;
}
