//pass
//--local_size=32 --global_size=32
/* pointer_order_race with 32 work-items: the comparison always holds, the else branch never runs. */
kernel void f(global int *A) {
  int gid = get_global_id(0);
  if (A + gid < A + 32)
    A[gid] = gid;
  else
    A[0] = gid;
}
