//pass
//--local_size=32 --global_size=64 --arg v=0x0000000100000000
/* An int2 scalar (lane 0 in the low half of the value): v = (0, 1), so out[gid]. */
kernel void strided(global int *out, int2 v) {
  size_t i = get_global_id(0);
  out[v.x + v.y * i] = (int)i;
}
