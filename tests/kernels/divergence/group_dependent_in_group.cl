//xfail:NOT_ALL_VERIFIED
//--local_size=4,4 --global_size=8,8
//barrier may be reached by non-uniform control flow
kernel void two_d(global int *a, local int *t) {
  size_t x = get_local_id(0), y = get_local_id(1);
  if (y == 0)
    barrier(CLK_LOCAL_MEM_FENCE);
  a[get_global_id(1) * 8 + get_global_id(0)] = (int)x;
}
