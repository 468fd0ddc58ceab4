//pass
//--global_size=8 --local_size=8 --size out=32 --checks=all
/* The fixed form of constant_table_past_end_race: the index wraps around the table. */
__constant int weights[4] = {1, 2, 3, 4};
__kernel void weigh(__global int *out) {
  int i = get_global_id(0);
  out[i] = weights[i & 3] * i;
}
