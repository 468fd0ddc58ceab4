//pass
//--local_size=64 --global_size=256
kernel void row_sum(global const float *m, global float *out) {
  size_t r = get_global_id(0);
  float s = 0.0f;
  for (int c = 0; c < 300; ++c)
    s += m[r * 300 + c];
  out[r] = s;
}
