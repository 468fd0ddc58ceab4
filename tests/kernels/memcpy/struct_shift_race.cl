//xfail:NOT_ALL_VERIFIED
//--global_size=64 --local_size=32 --size buf=1560
//possible (write-read|read-write) race on buf\[
//read by .*struct_shift_race.cl:15:12: item s = buf\[i \+ 1\];
//write by .*struct_shift_race.cl:17:12: buf\[i\] = s;
/* `s = buf[i + 1]; buf[i] = s;` of a struct Clang copies with memcpy (the array field indexed by a value
   keeps s in memory): work-item i reads the struct work-item i + 1 writes. */
typedef struct {
  int key;
  int digits[4];
} item;

kernel void shift(global item *buf) {
  size_t i = get_global_id(0);
  item s = buf[i + 1];
  s.digits[s.key & 3] += 1;
  buf[i] = s;
}
