//pass
//--local_size=32 --global_size=64
/* uncaptured_vector_race with s.x = 0 ruled out: distinct slots for every value of s (the index is a
   size_t: i * s.x cannot wrap around for |s.x| < 2^31 and i < 64). */
kernel void pitch(global int *out, int2 s) {
  if (s.x == 0)
    return;
  size_t i = get_global_id(0);
  out[i * s.x + s.y] = (int)i;
}
