//xfail:NOT_ALL_VERIFIED
//--global_size=64 --local_size=64 --data idx=iota:2048 --size table=8188 --size out=256 --checks=all
//error: out-of-bounds read on table\[65536\]
/* An int read two bytes into the captured ints 0 and 1 (little-endian: bytes 00 00 01 00) is 65536: far past
   table's end. A constant offset that straddles two words reads the bytes where they lie; taken as the
   aligned word before it (0), this launch came out `verified`. */
__kernel void pick(__global const int *idx, __global const int *table, __global int *out) {
  int i = get_global_id(0);
  out[i] = table[*(__global const int *)((__global const char *)idx + 2)] + i;
}
