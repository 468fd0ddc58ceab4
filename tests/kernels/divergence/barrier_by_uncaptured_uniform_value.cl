//pass
//--local_size=64 --global_size=64 --size B=256
/* The fixed form of barrier_by_uncaptured_value: every work-item reads A[0] — one memory nothing writes,
   so one value for all, whatever the contents: the barrier is reached by all or by none. */
kernel void foo(global const int *restrict A, global int *restrict B) {
  int tmp = A[0];
  if (tmp == 0)
    barrier(CLK_GLOBAL_MEM_FENCE);
  B[get_global_id(0)] = tmp;
}
