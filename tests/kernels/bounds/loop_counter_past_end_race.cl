//xfail:NOT_ALL_VERIFIED
//--local_size=1 --global_size=1 --size out=64
//error: out-of-bounds write on out\[16\] where k = 16 with n = 16
/* `<=` for `<`: with n = 16 the loop writes out[16], past the 16 ints. The witness names the loop counter
   the address depends on (k, the variable's source name) beside the open count. */
__kernel void clear(__global int *out, int n) {
  for (int k = 0; k <= n; ++k)
    out[k] = 0;
}
