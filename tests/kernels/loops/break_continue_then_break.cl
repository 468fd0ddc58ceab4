//pass
//--local_size=16 --global_size=64
/* Work-item i owns the 4 elements from 4i; the loop skips k == 1 and breaks at k == 4. With the continue
   first, the loop has only a maximum trip count (break_early.cl tests the break first): it is unrolled to
   that bound with its exits kept. It never steps outside its own block. */
kernel void fill_block(global int *a) {
  size_t i = get_global_id(0);
  for (int k = 0; k < 8; ++k) {
    if (k == 1)
      continue;
    if (k == 4)
      break;
    a[i * 4 + k] = k;
  }
}
