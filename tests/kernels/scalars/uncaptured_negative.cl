//pass
//--local_size=32 --global_size=64
/* uncaptured_negative_race with one slot per work-item: race-free for every n. */
kernel void clamp_low(global int *out, int n) {
  int i = (int)get_global_id(0);
  if (n < 0)
    out[i] = i;
}
