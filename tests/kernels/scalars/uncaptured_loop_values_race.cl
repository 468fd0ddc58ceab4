//xfail:NOT_ALL_VERIFIED
//--local_size=64 --global_size=64
//possible write-write race on A\[0\] with start = [0-9]+ and end = [0-9]+
/* GPUVerify's benign_race_tests/pass/writeinloop with the loop index stored: two work-items at different
   iterations write different values, for some values of the uncaptured bounds. */
kernel void loop(local int *A, int start, int end) {
  for (unsigned i = start; i < end; ++i)
    A[0] = i;
}
