//xfail:NOT_ALL_VERIFIED
//--global_size=64 --local_size=64 --size hist=64 --data keys=iota:64 --size keys=256 --checks=all
//error: out-of-bounds atomic on hist
/* A histogram of 16 bins indexed by the key itself: keys 16..63 fall past the last bin. */
__kernel void histogram(__global int *hist, __global const int *keys) {
  atomic_inc(&hist[keys[get_global_id(0)]]);
}
