//pass
//--local_size=8,8 --global_size=64,64
/* The fixed form of write_column_race: each work-item writes pixel (x, y) with a constant lane-by-lane
   vector `(int2)(x, y)` whose lanes it fills in. */
kernel void k(write_only image2d_t dest, read_only image2d_t src) {
  const sampler_t sampler = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;
  write_imagef(dest, (int2)(get_global_id(0), get_global_id(1)),
               read_imagef(src, sampler, (int2)(get_global_id(0), get_global_id(1))));
}
