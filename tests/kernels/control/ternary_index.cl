//pass
//--local_size=32 --global_size=64
kernel void tern(global int *a) {
  size_t i = get_global_id(0);
  a[i % 2 == 0 ? i / 2 : 32 + i / 2] = (int)i;
}
