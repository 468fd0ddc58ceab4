//xfail:NOT_ALL_VERIFIED
//--local_size=32 --global_size=64
//possible write-write race on out\[[0-9]+\] with s = \(int2\)\(0, [0-9]+\)
/* An uncaptured vector argument: the witness names it as an OpenCL C vector literal, lane 0 first. */
kernel void pitch(global int *out, int2 s) {
  size_t i = get_global_id(0);
  out[i * s.x + s.y] = (int)i;
}
