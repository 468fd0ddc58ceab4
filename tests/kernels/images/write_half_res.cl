//pass
//--local_size=8,8 --global_size=16,16
/* Downsampling done right: only the work-items at even (x, y) write, one per output pixel. */
kernel void fill(write_only image2d_t out, global const float4 *in) {
  int2 p = (int2)(get_global_id(0), get_global_id(1));
  if ((p.x & 1) == 0 && (p.y & 1) == 0)
    write_imagef(out, p / 2, in[p.y * 16 + p.x]);
}
