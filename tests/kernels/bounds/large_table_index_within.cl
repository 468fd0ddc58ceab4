//pass
//--global_size=2048 --local_size=64 --data idx=iota:2048 --size table=8192 --size out=8192 --checks=all
/* The index comes from a read-only buffer too large to read exactly (8 KiB of captured ints, 0..2047):
   each whole int of it is one of the captured words, so idx[i] lies between the least and the greatest
   (docs/semantics.md row 13d) and table[idx[i]] stays inside its 2048 ints. hashcat's markov kernels index
   their character tables this way. */
__kernel void gather(__global const int *idx, __global const int *table, __global int *out) {
  int i = get_global_id(0);
  out[i] = table[idx[i]];
}
