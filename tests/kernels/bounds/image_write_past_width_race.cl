//xfail:NOT_ALL_VERIFIED
//--local_size=8,8 --global_size=16,16 --image out=image2d:15x16 --size in=4096
//error: out-of-bounds write on out at pixel \(15, \d+\)
/* The NDRange is one column wider than the image it fills: the last column's work-items write pixels
   past its width, which OpenCL 1.2 §6.12.14.3 leaves undefined (write_imagef: "if (x, y) coordinate
   values are not in the range (0 … image width – 1, 0 … image height – 1), the behavior is undefined"). */
kernel void fill(write_only image2d_t out, global const float4 *in) {
  int2 p = (int2)(get_global_id(0), get_global_id(1));
  write_imagef(out, p, in[p.y * 16 + p.x]);
}
