//xfail:NOT_ALL_VERIFIED
//--local_size=32 --global_size=64 --size src=512 --size dst=512 --alias dst=src
//race on (src|dst)\[
/* The same copy with the destination only 32 elements further on: work-item i writes element i + 32,
   which work-item i + 32 reads through the other (aliased) argument. */
kernel void copy_half(global const int *src, global int *dst) {
  size_t i = get_global_id(0);
  dst[i + 32] = src[i];
}
