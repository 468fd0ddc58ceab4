//xfail:NOT_ALL_VERIFIED
//--local_size=8,8,1 --global_size=8,8,4 --image out=image2d_array:8x8x3
//error: out-of-bounds write on out at pixel \(\d+, \d+, 3\)
/* One layer per work-group in z, but the host made an array of three layers for four groups: the last
   group writes layer 3 (OpenCL 1.2 §6.12.14.3: the array index must lie in 0 … array size – 1). */
kernel void layers(write_only image2d_array_t out) {
  int4 p = (int4)(get_global_id(0), get_global_id(1), get_global_id(2), 0);
  write_imagef(out, p, (float4)(1.0f));
}
