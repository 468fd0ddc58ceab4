//pass
//--local_size=4,4 --global_size=16,16 --global_offset=4,8
/* A 2D launch with a global offset: subtracting get_global_offset gives coordinates 0..15, so the
   clamp to column 15 is a no-op and every work-item writes its own element. */
kernel void clamp_store(global int *a) {
  size_t x = min(get_global_id(0) - get_global_offset(0), (size_t)15);
  size_t y = get_global_id(1) - get_global_offset(1);
  a[y * 16 + x] = (int)get_global_id(0);
}
