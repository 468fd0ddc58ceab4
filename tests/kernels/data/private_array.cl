//pass
//--local_size=16 --global_size=64
kernel void priv(global int *out) {
  int p[4];
  size_t i = get_global_id(0);
  for (int k = 0; k < 4; ++k)
    p[k] = (int)i + k;
  out[i] = p[i % 4];
}
