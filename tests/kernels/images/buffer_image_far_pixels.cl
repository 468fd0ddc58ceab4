//pass
//--local_size=64 --global_size=128
/* Work-items of group 0 write pixel x, those of group 1 pixel x + 2^21: different pixels of a 1D buffer
   image (PoCL allows 2^28 pixels). Packed into 21 bits per coordinate they were one pixel, a false race;
   a single coordinate keeps all 64 bits (docs/semantics.md row 32). */
kernel void k(write_only image1d_buffer_t dest) {
  int x = get_local_id(0) + (int)get_group_id(0) * (1 << 21);
  write_imagef(dest, x, (float4)(1.0f, 0.0f, 0.0f, 1.0f));
}
