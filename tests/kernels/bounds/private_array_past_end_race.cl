//xfail:NOT_ALL_VERIFIED
//--global_size=64 --local_size=16 --size out=256 --checks=all
//error: out-of-bounds write on window\[8\]
/* A private array of 8 ints indexed modulo 9: the work-items with i % 9 == 8 write one int past its end,
   inside the work-item's own stack frame (no other memory is hit, and no race). */
__kernel void smooth(__global int *out) {
  int window[8];
  int i = get_global_id(0);
  for (int j = 0; j < 8; ++j)
    window[j] = j;
  window[i % 9] = i;
  out[i] = window[i % 8];
}
