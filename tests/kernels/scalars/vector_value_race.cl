//xfail:NOT_ALL_VERIFIED
//--local_size=32 --global_size=64 --arg v=0x0000000000000001
//possible write-write race on out
/* The same with v = (1, 0): every work-item writes out[1]. */
kernel void strided(global int *out, int2 v) {
  size_t i = get_global_id(0);
  out[v.x + v.y * i] = (int)i;
}
