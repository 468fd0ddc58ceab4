//xfail:NOT_ALL_VERIFIED
//--local_size=8,8 --global_size=16,16 --image src=image2d:16x16 --image dst=image2d:16x16 --arg rad=0x00000001 --oclgrind-blind="Oclgrind reads a pixel outside the image as the border colour, silently, whatever the sampler (WorkItemBuiltins.cpp readNormalizedColor)"
//error: out-of-bounds read on src at pixel \(16, \d+\) where xx = 16
/* FFmpeg's avgblur with its window's end off by one (`xx <= min(loc.x + rad, 16)` for the width 16) and a
   sampler that does not clamp: the last column's window reads x = 16. The witness names the window's
   counter. */
__kernel void blur(write_only image2d_t dst, read_only image2d_t src, int rad) {
  const sampler_t s = CLK_NORMALIZED_COORDS_FALSE | CLK_FILTER_NEAREST;
  int2 loc = (int2)(get_global_id(0), get_global_id(1));
  float4 acc = 0;
  for (int xx = max(0, loc.x - rad); xx <= min(loc.x + rad, 16); xx++)
    acc += read_imagef(src, s, (int2)(xx, loc.y));
  write_imagef(dst, loc, acc);
}
