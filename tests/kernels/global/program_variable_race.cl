//xfail:NOT_ALL_VERIFIED
//--global_size=64 --local_size=64 --size out=256 --checks=all --flags=-cl-std=CL2.0
//error: possible write-write race on counter\[0\]
/* A program-scope global variable (OpenCL 2.0) written by every work-item: one int that all of them share,
   as a buffer would be. */
global int counter;
__kernel void k(__global int *out) {
  int i = get_global_id(0);
  counter = i;
  out[i] = i;
}
