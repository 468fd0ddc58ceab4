//xfail:NOT_ALL_VERIFIED
//--local_size=32 --global_size=32
//race on tmp\[
kernel void fence_only(global int *out, local int *tmp) {
  size_t l = get_local_id(0);
  tmp[l] = 1;
  mem_fence(CLK_LOCAL_MEM_FENCE);
  out[l] = tmp[31 - l];
}
