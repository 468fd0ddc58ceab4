//xfail:NOT_ALL_VERIFIED
//--global_size=8 --local_size=8 --size out=32 --checks=all
//error: out-of-bounds read on weights\[\d\]
/* A program-scope constant table of 4 weights read by 8 work-items. */
__constant int weights[4] = {1, 2, 3, 4};
__kernel void weigh(__global int *out) {
  int i = get_global_id(0);
  out[i] = weights[i] * i;
}
