//xfail:NOT_ALL_VERIFIED
//--global_size=16,4 --local_size=16,4 --size out=256 --checks=all
//error: out-of-bounds write on tile\[\d+\]
/* A 4 × 8 local tile whose first row is written with a column index up to 15: every access stays inside
   the tile's 128 bytes (no other work-item writes the second row), but tile[0][x] with x ≥ 8 indexes past
   its row (C99 Annex J.2: a[1][7] of int a[4][5]). */
__kernel void transpose(__global int *out) {
  __local int tile[4][8];
  int x = get_local_id(0), y = get_local_id(1);
  if (y == 0)
    tile[y][x] = x;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(1) * 16 + get_global_id(0)] = tile[y][x & 7];
}
