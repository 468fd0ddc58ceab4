//pass
//--local_size=16 --global_size=16
kernel void bc(global int *a, global const int *b) {
  size_t i = get_global_id(0);
  for (int k = 0; k < 8; ++k) {
    if (k == 2)
      continue;
    if (b[i] == k)
      break;
    a[i * 8 + k] = k;
  }
}
