//pass
//--local_size=32 --global_size=64
kernel void early(global int *a, global const int *b) {
  size_t i = get_global_id(0);
  if (i >= 60)
    return;
  a[i] = b[i + 4];
}
