//xfail:NOT_ALL_VERIFIED
//--local_size=32 --global_size=64
//possible write-write race on out\[[0-9]+\] with d = ([2-9]|[1-9][0-9]+)\b
/* Any d >= 2 maps two ids to one slot. d = 0 would give an unspecified quotient (OpenCL 1.2 §6.3), which a
   witness must not rest on: the witness names a d of 2 or more. */
kernel void bucket(global int *out, uint d) {
  uint i = get_global_id(0);
  out[i / d] = (int)i;
}
