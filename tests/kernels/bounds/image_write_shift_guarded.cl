//pass
//--local_size=8,8 --global_size=16,16 --image out=image2d:16x16 --size in=4096
/* The fixed twin of image_write_before_start_race: the first column is guarded off. */
kernel void shift(write_only image2d_t out, global const float4 *in) {
  int2 p = (int2)(get_global_id(0), get_global_id(1));
  if (p.x > 0)
    write_imagef(out, (int2)(p.x - 1, p.y), in[p.y * 16 + p.x]);
}
