//xfail:NOT_ALL_VERIFIED
//--local_size=8,8 --global_size=16,16 --image out=image2d:16x16 --size in=4096
//error: out-of-bounds write on out at pixel \(-1, \d+\)
/* A shift left by one pixel without a guard: the first column writes x = -1, before the image. */
kernel void shift(write_only image2d_t out, global const float4 *in) {
  int2 p = (int2)(get_global_id(0), get_global_id(1));
  write_imagef(out, (int2)(p.x - 1, p.y), in[p.y * 16 + p.x]);
}
