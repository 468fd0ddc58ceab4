//pass
//--local_size=8,8 --global_size=16,16
/* Each work-item reads a pixel through a sampler and writes its own element: a read-only image never
   races, and the pixel's value does not decide any address. */
kernel void img(read_only image2d_t in, global float4 *out) {
  const sampler_t s = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;
  int2 p = (int2)(get_global_id(0), get_global_id(1));
  out[p.y * 16 + p.x] = read_imagef(in, s, p);
}
