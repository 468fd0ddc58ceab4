//pass
//--local_size=32 --global_size=64
kernel void shorts(global short *s) {
  size_t i = get_global_id(0);
  s[2 * i] = 1;
  s[2 * i + 1] = 2;
}
