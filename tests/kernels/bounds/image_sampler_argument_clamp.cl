//pass
//--local_size=8,8 --global_size=16,16 --image src=image2d:16x16 --sampler s=clamp --size out=4096
/* The fixed twin of image_sampler_argument_none_race: the host's sampler clamps (CL_ADDRESS_CLAMP: the
   row below reads the border colour). */
kernel void down(read_only image2d_t src, sampler_t s, global float4 *out) {
  int2 p = (int2)(get_global_id(0), get_global_id(1));
  out[p.y * 16 + p.x] = read_imagef(src, s, (int2)(p.x, p.y + 1));
}
