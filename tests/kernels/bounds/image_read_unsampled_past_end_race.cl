//xfail:NOT_ALL_VERIFIED
//--local_size=8,8 --global_size=16,16 --image in=image2d:16x16 --size out=4096 --oclgrind-blind="Oclgrind reads a pixel outside the image as the border colour, silently, whatever the sampler (WorkItemBuiltins.cpp readNormalizedColor)"
//error: out-of-bounds read on in at pixel \(16, \d+\)
/* A read without a sampler of the right neighbour: the last column reads x = 16, past the image. A
   samplerless read behaves as one with CLK_ADDRESS_NONE (OpenCL 1.2 §6.12.14.2), whose coordinates must
   lie inside the image. */
kernel void diff(read_only image2d_t in, global float4 *out) {
  int2 p = (int2)(get_global_id(0), get_global_id(1));
  out[p.y * 16 + p.x] = read_imagef(in, (int2)(p.x + 1, p.y)) - read_imagef(in, p);
}
