//xfail:NOT_ALL_VERIFIED
//--global_size=64 --local_size=8 --size out=256 --checks=all --oclgrind-blind="the bytes an uninitialised local array holds (Oclgrind's are its own choice)"
//error: out-of-bounds write on L\[
/* GPUVerify's array_bounds_tests/array_in_array: an index read from a local array nothing writes. OpenCL
   does not initialise local memory, so it holds any bytes, and an index past the end of L is one of them. */
__kernel void foo(__global int *out) {
  local int L[64];
  local int G[64];
  L[G[get_local_id(0)]] = get_global_size(0);
  out[get_global_id(0)] = get_global_id(0);
}
