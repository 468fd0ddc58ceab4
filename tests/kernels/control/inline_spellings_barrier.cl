//pass
//--local_size=16 --global_size=64 --size out=256
/* The fixed form of inline_spellings_barrier_race: sync() (an `inline` helper spelt through a
   macro, its body compiled) separates the writes of tile from the neighbour's read. */
#define HELPER inline
HELPER void sync(void) { barrier(CLK_LOCAL_MEM_FENCE); }
inline int left(int i, int n) { return (i + n - 1) % n; }
static inline void put(local int *t, int i, int v) { t[i] = v; }
__inline int get(local int *t, int i) { return t[i]; }
kernel void k(global int *out, local int *tile) {
  int l = (int)get_local_id(0);
  put(tile, l, l);
  sync();
  out[get_global_id(0)] = get(tile, left(l, 16));
}
