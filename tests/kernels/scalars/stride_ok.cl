//pass
//--local_size=32 --global_size=64 --arg stride=0x00000001
kernel void strided(global int *a, int stride) {
  size_t i = get_global_id(0);
  a[i * stride] = (int)i;
}
