//pass
//--local_size=16 --global_size=64
/* A plain C99 `inline` helper (as OpenCV's `inline float3 sobel(…)`): at -O0 Clang emits no body for an
   inline definition, so the frontend compiles with GNU89 inline semantics to keep it. Each work-item writes
   the element the helper computes for it: its own. */
inline int slot(int i) { return 2 * i + 1; }
kernel void k(global int *out) {
  int i = (int)get_global_id(0);
  out[slot(i)] = i;
}
