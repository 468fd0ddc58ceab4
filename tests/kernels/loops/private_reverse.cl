//pass
//--local_size=16 --global_size=32
/* Reverses each 8-element chunk in place through a private array indexed by the loop counter: all reads
   of the chunk happen before the writes, and chunks of different work-items are disjoint. */
kernel void reverse_chunks(global int *a) {
  int p[8];
  size_t base = get_global_id(0) * 8;
  for (int k = 0; k < 8; ++k)
    p[k] = a[base + k];
  for (int k = 0; k < 8; ++k)
    a[base + 7 - k] = p[k];
}
