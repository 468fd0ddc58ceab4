//xfail:NOT_ALL_VERIFIED
//--global_size=16 --local_size=16 --size out=248 --checks=all
//error: out-of-bounds write on out
/* vstore4 by 16 work-items covers 64 floats (256 bytes), but the buffer holds 62: the last store's final
   two lanes land past the end. */
__kernel void fill(__global float *out) {
  int i = get_global_id(0);
  vstore4((float4)(i), i, out);
}
