//pass
//--local_size=64 --global_size=128 --size B=1024 --size A=512
/* An ordered comparison is false on NaN and `!(v == v)` is true only there: each work-item writes its own
   element on one branch and B[0] only when A[0] is NaN, which all read alike — so the B[0] writes store one
   value (benign) and nothing else meets. */
kernel void copy(global const float *A, global float *B) {
  float v = A[get_global_id(0)];
  if (v == v)
    B[get_global_id(0) + 1] = v;
  else if (A[0] != A[0])
    B[0] = 1.0f;
}
