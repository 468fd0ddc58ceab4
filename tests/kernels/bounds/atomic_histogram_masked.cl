//pass
//--global_size=64 --local_size=64 --size hist=64 --data keys=iota:64 --size keys=256 --checks=all
/* The fixed form of atomic_histogram_past_end_race: the key's low four bits pick the bin. */
__kernel void histogram(__global int *hist, __global const int *keys) {
  atomic_inc(&hist[keys[get_global_id(0)] & 15]);
}
