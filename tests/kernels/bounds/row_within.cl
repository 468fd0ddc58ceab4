//pass
//--global_size=16,4 --local_size=16,4 --size out=256 --checks=all
/* The fixed form of row_overrun_race: a 4 × 16 tile, one row per y. */
__kernel void transpose(__global int *out) {
  __local int tile[4][16];
  int x = get_local_id(0), y = get_local_id(1);
  tile[y][x] = x;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(1) * 16 + get_global_id(0)] = tile[y][15 - x];
}
