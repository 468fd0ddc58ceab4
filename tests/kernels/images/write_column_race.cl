//xfail:NOT_ALL_VERIFIED
//--local_size=8,8 --global_size=64,64
//possible write-write race on dest
/* GPUVerify imagetests/fail2dimagecopy: every work-item of a row writes pixel (0, y) — the coordinate
   `(int2)(0, y)` is a constant vector with an undefined lane that the y fills in. */
kernel void k(write_only image2d_t dest, read_only image2d_t src) {
  const sampler_t sampler = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;
  write_imagef(dest, (int2)(0, get_global_id(1)),
               read_imagef(src, sampler, (int2)(get_global_id(0), get_global_id(1))));
}
