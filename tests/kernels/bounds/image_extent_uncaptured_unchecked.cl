//pass
//--local_size=8,8 --global_size=16,16
//note: bounds not checked for in, out: the capture gives no size or extent
/* No extents in the capture (a capture from before the layer recorded them, or a header without --image):
   the image's pixels cannot be checked, and the result names it, as it names a buffer without a size. */
kernel void fill(write_only image2d_t out, global const float4 *in) {
  int2 p = (int2)(get_global_id(0), get_global_id(1));
  write_imagef(out, p, in[p.y * 16 + p.x]);
}
