//xfail:NOT_ALL_VERIFIED
//--global_size=64 --local_size=64 --size out=256 --checks=all --arg n=0x00000002
//error: out-of-bounds read on c_arr\[2\]
/* The captured n makes the index constant: the specialiser's clean-up folded the read past the end to
   poison while the table was an LLVM constant (`verified`). */
constant int c_arr[] = {-3, 56};
__kernel void k(__global int *out, int n) {
  int i = get_global_id(0);
  out[i] = c_arr[n];
}
