//xfail:NOT_ALL_VERIFIED
//--global_size=64 --local_size=64 --size out=256 --checks=all --oclgrind-blind="Oclgrind's compiler deletes the access past the end (undefined behaviour at a constant offset)"
//error: out-of-bounds read on c_arr\[2\]
/* An off-by-one loop over a constant table: unrolled by the specialiser, its last read lies at a constant
   index past the end, which the unroller's own clean-up folded to poison while the table was an LLVM
   constant (`verified`). */
constant int c_arr[] = {-3, 56};
__kernel void k(__global int *out) {
  int i = get_global_id(0);
  int s = 0;
  for (int k = 0; k <= 2; k++)
    s += c_arr[k];
  out[i] = s;
}
