//xfail:NOT_ALL_VERIFIED
//--local_size=4,4,4 --global_size=8,8,8 --image vol=image3d:8x8x8 --size out=8192 --oclgrind-blind="Oclgrind reads a pixel outside the image as the border colour, silently, whatever the sampler (WorkItemBuiltins.cpp readNormalizedColor)"
//error: out-of-bounds read on vol at pixel \(\d+, \d+, 8\)
/* A 3D stencil without a guard on its upper z neighbour: the last slice reads z = 8, past the depth. */
kernel void dz(read_only image3d_t vol, global float4 *out) {
  int4 p = (int4)(get_global_id(0), get_global_id(1), get_global_id(2), 0);
  out[(p.z * 8 + p.y) * 8 + p.x] = read_imagef(vol, p + (int4)(0, 0, 1, 0)) - read_imagef(vol, p);
}
