//pass
//--global_size=64 --local_size=32 --size buf=4096
/* memmove_shift_race fixed: the source and destination overlap, but within one work-item's 32-byte slot. */
kernel void move(global char *buf) {
  size_t i = get_global_id(0);
  __builtin_memmove(buf + 32 * i, buf + 32 * i + 4, 16);
}
