//xfail:NOT_ALL_VERIFIED
//--global_size=256 --local_size=64 --size out=1024 --size in=1024 --checks=all
//error: out-of-bounds read on in\[-1\]
/* A left neighbour without a guard: work-item 0 reads the int before the start of `in`. */
__kernel void diff(__global int *out, __global const int *in) {
  int i = get_global_id(0);
  out[i] = in[i] - in[i - 1];
}
