//pass
//--global_size=64 --local_size=64 --size v=512 --checks=all --oclgrind-blind="Oclgrind's optimiser merges the two branches into one whole-vector read-modify-write, a race Clang's code generation introduces (llvm/llvm-project#160208)"
/* Two work-items share each float4: the even one assigns .yx, the odd one .wz (Clang: a shufflevector of
   the loaded vector and the new lanes, stored whole). The lanes they write are disjoint: no race. */
__kernel void k(__global float4 *v) {
  int i = get_global_id(0);
  if (i % 2 == 0)
    v[i / 2].yx = (float2)(i, i + 1);
  else
    v[i / 2].wz = (float2)(i, i + 1);
}
