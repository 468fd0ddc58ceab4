//unknown
//--global_size=4 --local_size=4 --data key=int:0x00000000,0x3fd9999a,0x400ccccd,0x4f32d05e --size out=16 --checks=all
//unknown: .*possible out-of-bounds access
/* The last key is 3e9f, beyond int's range: (int) 3e9f is implementation-defined (OpenCL 1.2 §6.2.3.3), any
   value, so out[(int)key[3]] may lie anywhere. Never `verified` (a conversion that saturated, or gave 0,
   would make it so or show a witness no device need give): `unknown`. */
__kernel void place(__global const float *key, __global int *out) {
  int i = get_global_id(0);
  out[(int)key[i]] = i;
}
