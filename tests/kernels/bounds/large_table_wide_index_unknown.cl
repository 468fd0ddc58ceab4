//unknown
//--global_size=1024 --local_size=64 --data idx=iota:2048 --size table=8192 --size out=4096 --checks=all
//unknown: .*possible out-of-bounds access at .*depending on the contents of idx
/* A long read of captured ints: its value is k | (k + 1) << 32 for the ints k and k + 1, far past table's
   end. The range of the captured words holds for reads of the width it was taken at: the ints' range (0 to
   2047) stated for a long read made this launch `verified`. */
__kernel void gather(__global const int *idx, __global const int *table, __global int *out) {
  int i = get_global_id(0);
  long k = ((__global const long *)idx)[i];
  out[i] = table[k];
}
