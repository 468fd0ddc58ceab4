//xfail:NOT_ALL_VERIFIED
//--local_size=32 --global_size=64
//possible write-write race on out\[0\] with n = -[0-9]+
/* Only a negative n makes the work-items share out[0]: the witness names a negative int. */
kernel void clamp_low(global int *out, int n) {
  int i = (int)get_global_id(0);
  if (n < 0)
    out[0] = i;
}
