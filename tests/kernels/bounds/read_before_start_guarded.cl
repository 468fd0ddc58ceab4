//pass
//--global_size=256 --local_size=64 --size out=1024 --size in=1024 --checks=all
/* The fixed form of read_before_start_race: the first element has no left neighbour. */
__kernel void diff(__global int *out, __global const int *in) {
  int i = get_global_id(0);
  out[i] = i > 0 ? in[i] - in[i - 1] : in[i];
}
