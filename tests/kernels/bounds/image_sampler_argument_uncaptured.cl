//unknown
//--local_size=8,8 --global_size=16,16 --image src=image2d:16x16 --size out=4096
//a possible out-of-bounds access at .*the sampler at .*whose addressing mode is not known
/* A sampler argument the capture does not describe (a capture from before samplers were recorded): it may
   be CL_ADDRESS_NONE, so whether the row below the image is read is not known. Not verified. */
kernel void down(read_only image2d_t src, sampler_t s, global float4 *out) {
  int2 p = (int2)(get_global_id(0), get_global_id(1));
  out[p.y * 16 + p.x] = read_imagef(src, s, (int2)(p.x, p.y + 1));
}
