//pass
//--global_size=16 --local_size=16 --size out=64 --data out=iota:16 --data in=iota:16 --size in=64
//diff: none
/* The twin of fast_math_cancel.cl, built without -cl-fast-relaxed-math: IEEE arithmetic on both sides,
   so the device and the interpreter agree on every statement. */
__kernel void cancel(__global float *out, __global const int *in) {
  size_t i = get_global_id(0);
  float x = (float)in[i] + 0.25f;
  float big = x + 16777216.0f;
  float back = big - 16777216.0f;
  out[i] = back;
}
