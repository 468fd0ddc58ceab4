//pass
//--global_size=1025 --local_size=1 --data idx=iota:-1:1025 --size table=4100 --size out=4100 --checks=all
/* As bounds/large_table_negative_index_unknown, the index offset by one: idx[i] + 1 lies between 0 and 1024
   by the signed range of the captured words (-1 to 1023), inside table's 1025 ints. */
__kernel void gather(__global const int *idx, __global const int *table, __global int *out) {
  int i = get_global_id(0);
  out[i] = table[idx[i] + 1];
}
