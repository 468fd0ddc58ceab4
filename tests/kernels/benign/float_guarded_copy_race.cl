//xfail:NOT_ALL_VERIFIED
//--local_size=64 --global_size=128 --size B=4 --size A=512
//error: possible write-write race on B\[0\] with A\[[0-9]+\] = .* and A\[[0-9]+\] = 
/* The racy form of float_guarded_copy: each work-item copies its own element when it exceeds 0.5, so two
   elements above 0.5 and different make a race — the witness names them (float literals). */
kernel void copy(global const float *A, global float *B) {
  float v = A[get_global_id(0)];
  if (v > 0.5f)
    B[0] = v;
}
