//xfail:NOT_ALL_VERIFIED
//--local_size=8,8 --global_size=16,16 --image src=image2d:16x16 --sampler s=none --size out=4096 --oclgrind-blind="Oclgrind reads a pixel outside the image as the border colour, silently, whatever the sampler (WorkItemBuiltins.cpp readNormalizedColor)"
//error: out-of-bounds read on src at pixel \(\d+, 16\)
/* The sampler is a kernel argument the host created with CL_ADDRESS_NONE (clGetSamplerInfo, in the
   capture's sidecar): the row below the image is read. */
kernel void down(read_only image2d_t src, sampler_t s, global float4 *out) {
  int2 p = (int2)(get_global_id(0), get_global_id(1));
  out[p.y * 16 + p.x] = read_imagef(src, s, (int2)(p.x, p.y + 1));
}
