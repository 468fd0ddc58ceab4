//xfail:NOT_ALL_VERIFIED
//--global_size=64 --local_size=64 --size out=256 --checks=all --flags=-cl-std=CL2.0
//error: out-of-bounds read on table\[4\]
/* A program-scope global array read one past its end (i % 5 reaches 4). */
global int table[4] = {1, 2, 3, 4};
__kernel void k(__global int *out) {
  int i = get_global_id(0);
  out[i] = table[i % 5];
}
