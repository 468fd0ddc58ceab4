//pass
//--local_size=16 --global_size=64 --arg n=0x00000040 --size out=6400
/* A straight-line kernel storing 24 rows out[k·n + gid] (SHOC S3D's ratt_kernel has 206): every pair of rows
   lies apart by interval arithmetic over their offsets with the ids' asserted ranges (docs/semantics.md
   row 34), so only each row against itself reaches the solver. */
kernel void rows(global int *out, uint n) {
  size_t g = get_global_id(0);
  out[0 * n + g] = 0;
  out[1 * n + g] = 1;
  out[2 * n + g] = 2;
  out[3 * n + g] = 3;
  out[4 * n + g] = 4;
  out[5 * n + g] = 5;
  out[6 * n + g] = 6;
  out[7 * n + g] = 7;
  out[8 * n + g] = 8;
  out[9 * n + g] = 9;
  out[10 * n + g] = 10;
  out[11 * n + g] = 11;
  out[12 * n + g] = 12;
  out[13 * n + g] = 13;
  out[14 * n + g] = 14;
  out[15 * n + g] = 15;
  out[16 * n + g] = 16;
  out[17 * n + g] = 17;
  out[18 * n + g] = 18;
  out[19 * n + g] = 19;
  out[20 * n + g] = 20;
  out[21 * n + g] = 21;
  out[22 * n + g] = 22;
  out[23 * n + g] = 23;
}
