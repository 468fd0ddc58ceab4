//unknown
//--global_size=2048 --local_size=64 --data idx=iota:2048 --size table=8188 --size out=8192 --checks=all
//unknown: .*possible out-of-bounds access at .*depending on the contents of idx
/* As bounds/large_table_index_within, one int short: the captured index 2047 (idx[2047]) reads past the end
   of table's 2047 ints. The captured words bound the index, but the encoder does not read each exactly,
   so the finding is possible, not shown: `unknown` with its cause, never `verified`. */
__kernel void gather(__global const int *idx, __global const int *table, __global int *out) {
  int i = get_global_id(0);
  out[i] = table[idx[i]];
}
