//xfail:NOT_ALL_VERIFIED
//--local_size=64 --global_size=256
//race on out\[
kernel void inter_group(global int *out) {
  size_t i = get_global_id(0);
  out[i] = 1;
  barrier(CLK_GLOBAL_MEM_FENCE);
  out[(i + 64) % 256] = 2;
}
