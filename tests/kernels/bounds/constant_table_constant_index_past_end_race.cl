//xfail:NOT_ALL_VERIFIED
//--global_size=64 --local_size=64 --size out=256 --checks=all --oclgrind-blind="Oclgrind's compiler deletes the access past the end (undefined behaviour at a constant offset)"
//error: out-of-bounds read on c_arr\[5\]
/* A program-scope constant table read at a constant index past its end by the work-items of the upper half.
   LLVM folds such a read to poison, which erased it while the table was an LLVM constant (`verified`). */
constant int c_arr[] = {-3, 56};
__kernel void k(__global int *out) {
  int i = get_global_id(0);
  out[i] = i >= 32 ? c_arr[5] : c_arr[1];
}
