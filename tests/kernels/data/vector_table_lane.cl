//pass
//--global_size=4 --local_size=4 --data pairs=int:9,0,9,1,9,2,9,3
/* A vector read from a captured read-only table is its bytes, lane 0 in the low bits (docs/semantics.md row
   13e): pairs[i].y is i, so each work-item writes its own element. OpenMM's sortBoxData reads a box index as
   the .y of a float2 this way. With the lanes taken the other way round every .y would be 9: a race. */
__kernel void scatter(__global const int2 *pairs, __global int *out) {
  int i = get_global_id(0);
  int2 p = pairs[i];
  out[p.y] = i;
}
