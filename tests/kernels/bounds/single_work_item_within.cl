//pass
//--global_size=1 --local_size=1 --size out=16 --checks=all
/* The fixed form of single_work_item_past_end_race: four ints. */
__kernel void task(__global int *out) {
  for (int i = 0; i < 4; ++i)
    out[i] = i;
}
