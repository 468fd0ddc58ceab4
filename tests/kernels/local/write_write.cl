//xfail:NOT_ALL_VERIFIED
//--local_size=8 --global_size=8
//possible write-write race on tmp\[
kernel void write_write(global int *out, local int *tmp) {
  size_t l = get_local_id(0);
  tmp[l / 2] = (int)l;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[l] = tmp[l / 2];
}
