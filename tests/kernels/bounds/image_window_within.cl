//pass
//--local_size=8,8 --global_size=16,16 --image src=image2d:16x16 --image dst=image2d:16x16 --arg rad=0x00000001
/* The fixed twin of image_window_past_edge_race: FFmpeg's own bound, `xx < min(loc.x + rad + 1, 16)`. */
__kernel void blur(write_only image2d_t dst, read_only image2d_t src, int rad) {
  const sampler_t s = CLK_NORMALIZED_COORDS_FALSE | CLK_FILTER_NEAREST;
  int2 loc = (int2)(get_global_id(0), get_global_id(1));
  float4 acc = 0;
  for (int xx = max(0, loc.x - rad); xx < min(loc.x + rad + 1, 16); xx++)
    acc += read_imagef(src, s, (int2)(xx, loc.y));
  write_imagef(dst, loc, acc);
}
