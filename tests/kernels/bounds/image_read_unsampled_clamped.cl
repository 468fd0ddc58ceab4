//pass
//--local_size=8,8 --global_size=16,16 --image in=image2d:16x16 --size out=4096
/* The fixed twin of image_read_unsampled_past_end_race: the neighbour's x is clamped by hand. */
kernel void diff(read_only image2d_t in, global float4 *out) {
  int2 p = (int2)(get_global_id(0), get_global_id(1));
  out[p.y * 16 + p.x] = read_imagef(in, (int2)(min(p.x + 1, 15), p.y)) - read_imagef(in, p);
}
