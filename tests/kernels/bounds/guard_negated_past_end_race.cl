//xfail:NOT_ALL_VERIFIED
//--global_size=64 --local_size=64 --size out=256 --data idx=iota:64 --size idx=256 --size table=64 --checks=all
//error: out-of-bounds read on table\[\d+\]
/* The early return has the wrong sense: `if (j < 16) return;` leaves only the indices past the end (16..63) to
   read the table. */
__kernel void guarded(__global int *out, __global const uint *idx, __global const int *table) {
  int i = get_global_id(0);
  uint j = idx[i];
  if (j < 16)
    return;
  out[i] = table[j];
}
