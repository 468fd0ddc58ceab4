//xfail:NOT_ALL_VERIFIED
//--global_size=64 --local_size=32 --size buf=1280 --arg k=0x00000002
//possible write-write race on buf\[0\]
//write by .*broadcast_race.cl:15:12: buf\[0\] = s;
/* Every work-item stores its own private struct to buf[0] (memcpy private → global): different values,
   a race. */
typedef struct {
  int key;
  int digits[4];
} item;

kernel void broadcast(global item *buf, int k) {
  item s = {(int)get_global_id(0), {0, 0, 0, 0}};
  s.digits[k & 3] = 1;
  buf[0] = s;
}
