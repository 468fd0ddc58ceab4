//xfail:NOT_ALL_VERIFIED
//--global_size=4 --local_size=4 --data pairs=int:0,5,1,5,2,5,3,5
//error: possible write-write race on out\[5\]
/* As data/vector_table_lane with every .y 5 (the .x lanes 0 to 3): all four work-items write out[5]. With the
   lanes taken the other way round each would write its own element, and the launch would come out
   `verified`. */
__kernel void scatter(__global const int2 *pairs, __global int *out) {
  int i = get_global_id(0);
  int2 p = pairs[i];
  out[p.y] = i;
}
