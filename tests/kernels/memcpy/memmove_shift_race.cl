//xfail:NOT_ALL_VERIFIED
//--global_size=64 --local_size=32 --size buf=4096
//possible (write-read|read-write|write-write) race on buf\[
/* Each work-item moves 16 bytes of buf down by 4 within its own 8-byte slot plus its neighbour's: the
   ranges of neighbours overlap. */
kernel void move(global char *buf) {
  size_t i = get_global_id(0);
  __builtin_memmove(buf + 8 * i, buf + 8 * i + 4, 16);
}
