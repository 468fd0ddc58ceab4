//pass
//--local_size=16 --global_size=64 --size out=256
/* The barrier lives in an `extern __inline__` helper: an external definition under C99, an inline-only one
   under GNU89 (Oclgrind's compiler cannot build this program: its helper has no body there). Clang emits
   the body either way here, so the barrier between the write of tile and the neighbour's read is seen. */
extern __inline__ void sync(void) { barrier(CLK_LOCAL_MEM_FENCE); }
kernel void k(global int *out, local int *tile) {
  int l = (int)get_local_id(0);
  tile[l] = l;
  sync();
  out[get_global_id(0)] = tile[(l + 15) % 16];
}
