//pass
//--global_size=16 --local_size=16 --size out=64 --data out=iota:16 --data in=iota:16 --size in=64 --flags=-cl-fast-relaxed-math
//diff: line=11 item=0 variable=back
/* -cl-fast-relaxed-math lets the compiler reassociate: (x + 2^24) - 2^24 becomes x on a device that
   optimises, while IEEE arithmetic rounds x + 2^24 to an even number first. The interpreter computes each
   operation as written. */
__kernel void cancel(__global float *out, __global const int *in) {
  size_t i = get_global_id(0);
  float x = (float)in[i] + 0.25f;
  float big = x + 16777216.0f;
  float back = big - 16777216.0f;
  out[i] = back;
}
