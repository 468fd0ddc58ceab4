//pass
//--local_size=2 --global_size=2 --data tab=int:33620481,117899777 --size out=32
/* distinct_words_unaligned_race's table read at whole words: work-item i reads word i, values 1 and 7. */
kernel void scatter(global const int *tab, global int *out) {
  size_t i = get_global_id(0);
  int v = *(global const int *)((global const char *)tab + 4 * i);
  out[(v >> 16) & 7] = (int)i;
}
