//pass
//--local_size=32 --global_size=128 --arg shift=0x00000000
kernel void shifted(global int *a, int shift) {
  size_t i = get_global_id(0);
  a[i >> shift] = (int)i;
}
