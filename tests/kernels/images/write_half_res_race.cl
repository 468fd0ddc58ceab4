//xfail:NOT_ALL_VERIFIED
//--local_size=8,8 --global_size=16,16
//write-write race on out
/* Downsampling done wrong: four work-items write each pixel of the half-size output. */
kernel void fill(write_only image2d_t out, global const float4 *in) {
  int2 p = (int2)(get_global_id(0), get_global_id(1));
  write_imagef(out, p / 2, in[p.y * 16 + p.x]);
}
