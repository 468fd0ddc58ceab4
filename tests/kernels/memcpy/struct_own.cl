//pass
//--global_size=64 --local_size=32 --size buf=1280
/* struct_shift_race fixed: each work-item copies its own struct out of global memory and back
   (memcpy global → private → global). */
typedef struct {
  int key;
  int digits[4];
} item;

kernel void own(global item *buf) {
  size_t i = get_global_id(0);
  item s = buf[i];
  s.digits[s.key & 3] += 1;
  buf[i] = s;
}
