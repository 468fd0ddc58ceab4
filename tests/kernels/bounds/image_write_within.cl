//pass
//--local_size=8,8 --global_size=16,16 --image out=image2d:16x16 --size in=4096
/* The fixed twin of image_write_past_width_race: the image is as wide as the NDRange, so every pixel
   written lies inside it. */
kernel void fill(write_only image2d_t out, global const float4 *in) {
  int2 p = (int2)(get_global_id(0), get_global_id(1));
  write_imagef(out, p, in[p.y * 16 + p.x]);
}
