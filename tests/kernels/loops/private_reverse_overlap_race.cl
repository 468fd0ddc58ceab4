//xfail:NOT_ALL_VERIFIED
//--local_size=16 --global_size=32
//race on a\[
/* The chunks start 4 elements apart but are 8 long: the second half of chunk i is the first half of
   chunk i + 1, read and written by two work-items. */
kernel void reverse_chunks(global int *a) {
  int p[8];
  size_t base = get_global_id(0) * 4;
  for (int k = 0; k < 8; ++k)
    p[k] = a[base + k];
  for (int k = 0; k < 8; ++k)
    a[base + 7 - k] = p[k];
}
