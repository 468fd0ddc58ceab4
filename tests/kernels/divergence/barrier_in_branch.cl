//xfail:NOT_ALL_VERIFIED
//--local_size=32 --global_size=64
//barrier may be reached by non-uniform control flow
kernel void divergent(global int *out, local int *tmp) {
  size_t l = get_local_id(0);
  tmp[l] = 1;
  if (l < 16)
    barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tmp[l];
}
