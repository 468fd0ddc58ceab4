//xfail:NOT_ALL_VERIFIED
//--local_size=16 --global_size=64
//write-write race on a\[
/* The same with blocks 18 apart: k = 18, 19 of work-item i overlap k = 0, 1 of work-item i + 1. */
kernel void fill_block(global int *a) {
  size_t i = get_global_id(0);
  for (int k = 0; k < 64; ++k) {
    if (k == 1)
      continue;
    if (k == 20)
      break;
    a[i * 18 + k] = k;
  }
}
