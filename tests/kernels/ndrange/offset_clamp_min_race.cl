//xfail:NOT_ALL_VERIFIED
//--local_size=4,4 --global_size=16,16 --global_offset=4,8
//write-write race on a\[
/* The x offset is not subtracted: ids 4..19 are clamped to 15, so work-items with x = 15..19 of a row
   all store to the same element (with different values). */
kernel void clamp_store(global int *a) {
  size_t x = min(get_global_id(0), (size_t)15);
  size_t y = get_global_id(1) - get_global_offset(1);
  a[y * 16 + x] = (int)get_global_id(0);
}
