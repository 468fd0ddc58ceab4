//xfail:NOT_ALL_VERIFIED
//--global_size=64 --local_size=64 --size v=512 --checks=all
//error: possible write-write race on v\[
/* swizzle_lanes_disjoint, but the odd work-item assigns .zy: lane y is written by both. */
__kernel void k(__global float4 *v) {
  int i = get_global_id(0);
  if (i % 2 == 0)
    v[i / 2].yx = (float2)(i, i + 1);
  else
    v[i / 2].zy = (float2)(i, i + 1);
}
