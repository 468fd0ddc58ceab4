//pass
//--local_size=32 --global_size=64 --size src=512 --size dst=512 --alias dst=src
/* Copies the first half of a buffer into its second half through two aliased arguments: work-items
   read elements 0..63 and write 64..127, so the reads and writes never meet. */
kernel void copy_half(global const int *src, global int *dst) {
  size_t i = get_global_id(0);
  dst[i + 64] = src[i];
}
