//xfail:NOT_ALL_VERIFIED
//--local_size=8,8 --global_size=16,16 --image src=image2d:16x16 --image dst=image2d:16x16 --oclgrind-blind="Oclgrind reads a pixel outside the image as the border colour, silently, whatever the sampler (WorkItemBuiltins.cpp readNormalizedColor)"
//error: out-of-bounds read on src at pixel \(16, \d+\)
/* A blur in the style of FFmpeg's avgblur with a sampler that does not clamp (no CLK_ADDRESS_ mode is
   CLK_ADDRESS_NONE): the window reaches one pixel past the right edge. With CLK_ADDRESS_NONE the
   coordinates must refer to a location inside the image (OpenCL 1.2 §6.12.14.1, Table 6.23). */
kernel void blur(write_only image2d_t dst, read_only image2d_t src) {
  const sampler_t sampler = CLK_NORMALIZED_COORDS_FALSE | CLK_FILTER_NEAREST;
  int2 p = (int2)(get_global_id(0), get_global_id(1));
  float4 acc = read_imagef(src, sampler, p) + read_imagef(src, sampler, (int2)(p.x + 1, p.y));
  write_imagef(dst, p, acc / 2);
}
