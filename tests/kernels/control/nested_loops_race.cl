//xfail:NOT_ALL_VERIFIED
//--local_size=8,8 --global_size=16,16
//write-write race on m\[
kernel void nested(global float *m) {
  size_t x = get_global_id(0), y = get_global_id(1);
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j)
      m[(y * 2 + i) * 32 + x * 2 + j] = (float)(x + j);
}
