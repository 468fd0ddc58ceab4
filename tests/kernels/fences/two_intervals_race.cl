//xfail:NOT_ALL_VERIFIED
//--local_size=16 --global_size=16
//race on t\[
kernel void intervals(global int *out, local int *t) {
  size_t l = get_local_id(0);
  t[l] = 1;
  barrier(CLK_LOCAL_MEM_FENCE);
  int x = t[15 - l];
  t[l] = x + 1;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[l] = t[(l + 3) % 16];
}
