//xfail:NOT_ALL_VERIFIED
//--local_size=2 --global_size=2 --data tab=int:33620481,117899777 --size out=32
//write-write race on out\[1\]
/* The words of tab (bytes 01 02 01 02 and 01 02 07 07) are distinct, but work-item 1 reads an int at byte
   offset 2 (bytes 01 02 01 02 again): an unaligned read is no captured word, so the distinct-words fact
   (docs/semantics.md row 13c) must not pair it with work-item 0's read of word 0. */
kernel void scatter(global const int *tab, global int *out) {
  size_t i = get_global_id(0);
  int v = *(global const int *)((global const char *)tab + 2 * i);
  out[(v >> 16) & 7] = (int)i;
}
