//unknown
//--local_size=8,8 --global_size=16,16 --image src=image2d:16x16 --size out=4096
//a possible out-of-bounds access at .*float image coordinates .*read through a sampler that does not clamp
/* Float coordinates through a sampler without clamping (CLK_ADDRESS_NONE): whether they stay inside the
   image is a question of floating-point values the analysis does not follow, so not verified. */
kernel void halve(read_only image2d_t src, global float4 *out) {
  const sampler_t sampler = CLK_NORMALIZED_COORDS_FALSE | CLK_FILTER_NEAREST;
  int2 p = (int2)(get_global_id(0), get_global_id(1));
  out[p.y * 16 + p.x] = read_imagef(src, sampler, (float2)(p.x * 1.5f, p.y * 1.5f));
}
