//pass
//--local_size=8,8 --global_size=16,16 --image src=image2d:16x16 --image dst=image2d:16x16
/* The fixed twin of image_read_address_none_past_end_race: the sampler clamps to the edge, so the
   pixel past the right edge reads the edge's (OpenCL 1.2 §6.12.14.1). */
kernel void blur(write_only image2d_t dst, read_only image2d_t src) {
  const sampler_t sampler = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;
  int2 p = (int2)(get_global_id(0), get_global_id(1));
  float4 acc = read_imagef(src, sampler, p) + read_imagef(src, sampler, (int2)(p.x + 1, p.y));
  write_imagef(dst, p, acc / 2);
}
