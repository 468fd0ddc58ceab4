//xfail:NOT_ALL_VERIFIED
//--local_size=32 --global_size=32
//race on buf\[
kernel void wrong_fence(global int *buf) {
  size_t l = get_local_id(0);
  buf[l] = 1;
  barrier(CLK_LOCAL_MEM_FENCE);
  buf[31 - l] += 1;
}
