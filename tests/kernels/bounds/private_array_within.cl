//pass
//--global_size=64 --local_size=16 --size out=256 --checks=all
/* The fixed form of private_array_past_end_race: indexed modulo 8. */
__kernel void smooth(__global int *out) {
  int window[8];
  int i = get_global_id(0);
  for (int j = 0; j < 8; ++j)
    window[j] = j;
  window[i % 8] = i;
  out[i] = window[(i + 3) % 8];
}
