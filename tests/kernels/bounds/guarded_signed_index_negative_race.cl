//xfail:NOT_ALL_VERIFIED
//--global_size=64 --local_size=64 --size out=256 --data idx=iota:64 --size idx=256 --size table=64 --checks=all
//error: out-of-bounds read on table\[-\d+\]
/* A signed index below the guard `k < 16` is negative for work-items 0..7 (k = idx[i] - 8): a read before the
   start of the table. The guard bounds k only from above. */
__kernel void guarded(__global int *out, __global const uint *idx, __global const int *table) {
  int i = get_global_id(0);
  int k = (int)idx[i] - 8;
  if (k < 16)
    out[i] = table[k];
}
