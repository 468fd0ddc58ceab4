//xfail:NOT_ALL_VERIFIED
//--global_size=1024 --local_size=64 --size out=4000 --size in=4000 --checks=all
//error: out-of-bounds read on in\[\d+\]
/* The classic: the global size is rounded up to a multiple of the work-group size (1000 → 1024) and the
   kernel has no `gid < n` guard, so work-items 1000..1023 write past the end of a 1000-int buffer (and read
   past the end of `in`). */
__kernel void scale(__global int *out, __global const int *in) {
  int i = get_global_id(0);
  out[i] = 2 * in[i];
}
