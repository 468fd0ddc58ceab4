//pass
//--global_size=64 --local_size=64 --size out=256 --data idx=iota:64 --size idx=256 --size table=64 --checks=all
/* The fixed forms of the guarded_index_* pairs: each read of the 16-int table is kept inside by a guard on
   its own index (unsigned, signed both ways, an early return, an equality), the index read from idx
   (0..63). The guards bound the index on the access's path (docs/semantics.md row 37h). */
__kernel void guarded(__global int *out, __global const uint *idx, __global const int *table) {
  int i = get_global_id(0);
  uint j = idx[i];
  int k = (int)idx[i] - 8;
  int sum = 0;
  if (j < 16)
    sum += table[j];
  if (k >= 0 && k < 16)
    sum += table[k];
  if (j == 15)
    sum += table[j];
  if (j + 1 < 17 && j < 100)
    sum += table[j];
  if (j >= 16) {
    out[i] = sum;
    return;
  }
  out[i] = sum + table[j];
}
