//xfail:NOT_ALL_VERIFIED
//--global_size=64 --local_size=64 --data idx=iota:2048 --size table=8188 --size out=256 --checks=all
//error: out-of-bounds read on table\[2047\]
/* As bounds/large_table_constant_offset_within one word later: idx[2047] is 2047, one past table's 2047
   ints. The word is read exactly, so the finding is shown, not merely possible. */
__kernel void pick(__global const int *idx, __global const int *table, __global int *out) {
  int i = get_global_id(0);
  out[i] = table[idx[2047]] + i;
}
