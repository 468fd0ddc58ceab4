//xfail:NOT_ALL_VERIFIED
//--global_size=4 --local_size=4 --data key=int:0x00000000,0x3fd9999a,0x400ccccd,0x40800000 --size out=16 --checks=all
//error: out-of-bounds write on out\[4\]
/* As bounds/float_index_truncated_within with the last key 4.0f: (int) 4.0f = 4 writes past the end of out's
   four ints. */
__kernel void place(__global const float *key, __global int *out) {
  int i = get_global_id(0);
  out[(int)key[i]] = i;
}
