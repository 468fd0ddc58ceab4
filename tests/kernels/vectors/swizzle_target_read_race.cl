//xfail:NOT_ALL_VERIFIED
//--global_size=64 --local_size=64 --size in=1024 --size out=1024 --size whole=1024 --mem-flags out=CL_MEM_WRITE_ONLY --mem-flags whole=CL_MEM_WRITE_ONLY --checks=all
//error: read of out\[.*CL_MEM_WRITE_ONLY
//error: read of whole\[.*CL_MEM_WRITE_ONLY
/* swizzle_assign_write_only with real reads of the write-only targets: lanes moved within the target
   (`out[i].zy = out[i].yz` reads out[i]), and a read of its own statement whose value goes unused. */
__kernel void k(__global float4 *in, __global float4 *out, __global float4 *whole) {
  int i = get_global_id(0);
  out[i].zy = out[i].yz;
  float4 unused = whole[i];
  whole[i] = in[i];
}
