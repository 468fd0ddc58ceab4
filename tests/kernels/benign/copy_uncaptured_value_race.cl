//xfail:NOT_ALL_VERIFIED
//--local_size=64 --global_size=128 --size B=4
//error: possible write-write race on B\[0\] with A\[[0-9]+\] = [0-9-]+ and A\[[0-9]+\] = [0-9-]+
/* The racy form of copy_uncaptured_value: each work-item copies its own element of A to B[0]; two
   different elements make different stores, and the witness names them. */
kernel void copy(global const int *A, global int *B) {
  B[0] = A[get_global_id(0)];
}
