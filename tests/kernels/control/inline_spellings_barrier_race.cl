//xfail:NOT_ALL_VERIFIED
//--local_size=16 --global_size=64 --size out=256
//possible (read-write|write-read) race on tile
/* Helpers under every inline spelling (the words extern inline in this comment too); the barrier lives in
   sync(), an `inline` helper spelt through a macro, and the race is that sync() is called only
   after the read of the neighbour's slot. Each helper's body must be compiled: a helper without one would
   be taken for a built-in and its barrier would vanish. */
#define HELPER inline
HELPER void sync(void) { barrier(CLK_LOCAL_MEM_FENCE); }
inline int left(int i, int n) { return (i + n - 1) % n; }
static inline void put(local int *t, int i, int v) { t[i] = v; }
__inline int get(local int *t, int i) { return t[i]; }
kernel void k(global int *out, local int *tile) {
  int l = (int)get_local_id(0);
  put(tile, l, l);
  out[get_global_id(0)] = get(tile, left(l, 16));
  sync();
}
