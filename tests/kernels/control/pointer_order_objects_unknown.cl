//unknown
//--local_size=32 --global_size=64
//unknown: possible race .*depending on a comparison of addresses of different objects at
/* Which of two buffers lies lower is not captured (and ordering pointers into different objects is
   undefined in C99 6.5.8): the race in the then-branch is possible, not a witness. */
kernel void f(global int *A, global int *B) {
  int gid = get_global_id(0);
  if (A < B)
    A[0] = gid;
  else
    A[gid] = gid;
}
