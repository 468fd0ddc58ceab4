//pass
//--local_size=64 --global_size=768 --size out=4096 --size other=4 --checks=races,divergence
/* The fixed form of counter_open_predicated_race: the work-item that skips the counter writes elsewhere;
   the counter's results are distinct for any starting value (768 calls cannot wrap a uint).
   Races only: the counter starts open, and out[atomic_inc(counter)] past out is a real out-of-bounds write. */
kernel void slot(global uint *counter, global int *out, global int *other) {
  if (get_global_id(0) != 13)
    out[atomic_inc(counter)] = (int)get_global_id(0);
  else
    other[0] = 13;
}
