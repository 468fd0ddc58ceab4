//unknown
//--global_size=1025 --local_size=1 --data idx=iota:-1:1025 --size table=4096 --size out=4100 --checks=all
//unknown: .*possible out-of-bounds access at .*depending on the contents of idx
/* The captured indices are -1 to 1023 (4,100 bytes: too many to read exactly). Read as unsigned words they
   reach 0xffffffff; the index is signed, so idx[0] = -1 reads table[-1], before its start. Both orders'
   ranges are stated (docs/semantics.md row 13d); with the signed one taken from the words zero-extended
   (0 to 0xffffffff: an empty interval at 32 bits, so a vacuous fact), this launch came out `verified`. */
__kernel void gather(__global const int *idx, __global const int *table, __global int *out) {
  int i = get_global_id(0);
  out[i] = table[idx[i]];
}
