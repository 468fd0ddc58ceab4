//pass
//--local_size=1 --global_size=1 --size out=64 --arg n=0x00000010
/* The fixed twin of loop_counter_past_end_race: `<` over the captured count of 16. */
__kernel void clear(__global int *out, int n) {
  for (int k = 0; k < n; ++k)
    out[k] = 0;
}
