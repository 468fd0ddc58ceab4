//unknown
//--global_size=2047 --local_size=1 --data idx=iota:2048 --size table=8192 --size out=8188 --checks=all
//unknown: .*possible out-of-bounds access at .*depending on the contents of idx
/* An int read two bytes into a captured int straddles two words: its value (k >> 16 | (k + 1) << 16 for the
   words k and k + 1) is none of the captured words, and it is far past table's end. The range of the
   captured words holds only for a whole word (offset = origin + 4·k): stated for every read, this launch
   came out `verified`. */
__kernel void gather(__global const int *idx, __global const int *table, __global int *out) {
  int i = get_global_id(0);
  __global const int *shifted = (__global const int *)((__global const char *)idx + 2);
  out[i] = table[shifted[i]];
}
