//pass
//--local_size=64 --global_size=256 --size out=2048
/* A private array indexed by a computed value stays in memory (no register promotion); each element read
   back is the value stored there last: even local ids write out[gid], odd ones out[gid + 256]. */
kernel void pick(global int *out) {
  size_t slot[2];
  slot[0] = get_global_id(0);
  slot[1] = get_global_id(0) + 256;
  out[slot[get_local_id(0) & 1]] = 1;
}
