//xfail:NOT_ALL_VERIFIED
//--local_size=32 --global_size=64
//barrier may be reached by non-uniform control flow
kernel void early(global int *a, local int *t) {
  size_t l = get_local_id(0);
  if (l == 7)
    return;
  t[l] = 1;
  barrier(CLK_LOCAL_MEM_FENCE);
  a[get_global_id(0)] = t[l];
}
