//pass
//--local_size=8,8 --global_size=16,16
/* Each work-item writes the pixel at its own (x, y): image writes are modelled per pixel, so no two
   work-items meet. */
kernel void fill(write_only image2d_t out, global const float4 *in) {
  int2 p = (int2)(get_global_id(0), get_global_id(1));
  write_imagef(out, p, in[p.y * 16 + p.x]);
}
