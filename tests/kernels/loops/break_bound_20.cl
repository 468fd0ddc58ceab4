//pass
//--local_size=16 --global_size=64
/* A loop of 64 that always leaves at k == 20: unrolled to its bound (20 iterations) with the exits kept;
   work-item i fills a[20i + k] for k < 20, its own block. */
kernel void fill_block(global int *a) {
  size_t i = get_global_id(0);
  for (int k = 0; k < 64; ++k) {
    if (k == 1)
      continue;
    if (k == 20)
      break;
    a[i * 20 + k] = k;
  }
}
