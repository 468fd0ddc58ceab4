//pass
//--global_size=64 --local_size=64 --size in=1024 --size out=1024 --size whole=1024 --mem-flags out=CL_MEM_WRITE_ONLY --mem-flags whole=CL_MEM_WRITE_ONLY --checks=all
/* Oclgrind's misc/lvalue_loads in small: a swizzle assignment reads nothing of its target, though Clang
   loads the target vector first (`shufflevector` of it keeping the other lanes, or, when every lane is
   assigned, a load it never uses). Both buffers are write-only, so a read would be an access-mode finding. */
__kernel void k(__global float4 *in, __global float4 *out, __global float4 *whole) {
  int i = get_global_id(0);
  out[i].zy = in[i].yz;
  whole[i].wzyx = in[i];
}
