//xfail:NOT_ALL_VERIFIED
//--local_size=64 --global_size=128
//possible write-write race on dest\[[0-9]+\]
/* The racy form of buffer_image_far_pixels: both groups write pixels 0 to 63, with different values. */
kernel void k(write_only image1d_buffer_t dest) {
  int x = get_local_id(0);
  write_imagef(dest, x, (float4)((float)get_group_id(0), 0.0f, 0.0f, 1.0f));
}
