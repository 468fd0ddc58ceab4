//pass
//--global_size=64 --local_size=32 --size buf=1280 --arg k=0x00000002
/* broadcast_race fixed: each work-item stores its private struct to its own slot. */
typedef struct {
  int key;
  int digits[4];
} item;

kernel void broadcast(global item *buf, int k) {
  item s = {(int)get_global_id(0), {0, 0, 0, 0}};
  s.digits[k & 3] = 1;
  buf[get_global_id(0)] = s;
}
