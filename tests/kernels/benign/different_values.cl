//xfail:NOT_ALL_VERIFIED
//--local_size=32 --global_size=32
//possible write-write race on flag
kernel void different(global int *flag) {
  flag[0] = (int)get_local_id(0);
}
