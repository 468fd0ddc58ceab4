//pass
//--global_size=16 --local_size=16 --size out=64 --data out=iota:16 --data in=iota:16 --size in=64 --flags=-cl-fast-relaxed-math
//diff: line=10 item=1 variable=big
/* -cl-fast-relaxed-math lets the compiler reassociate: on PoCL, big = ((float)in[i] + 0.25f) + 2^24 is
   computed as (float)in[i] + (0.25f + 2^24), which rounds otherwise from work-item 1 on (and back = big - 2^24
   folds to x). The interpreter computes each operation as written, in IEEE arithmetic. */
__kernel void cancel(__global float *out, __global const int *in) {
  size_t i = get_global_id(0);
  float x = (float)in[i] + 0.25f;
  float big = x + 16777216.0f;
  float back = big - 16777216.0f;
  out[i] = back;
}
