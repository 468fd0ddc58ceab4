//xfail:NOT_ALL_VERIFIED
//--global_size=128 --local_size=64 --size out=512 --size in=384 --checks=all
//error: out-of-bounds read on in
/* Each group copies 64 ints of `in` into local memory, but `in` holds 96: the second group's copy reads
   past its end. */
__kernel void stage(__global int *out, __global const int *in) {
  __local int tile[64];
  event_t e = async_work_group_copy(tile, in + get_group_id(0) * 64, 64, 0);
  wait_group_events(1, &e);
  out[get_global_id(0)] = tile[get_local_id(0)];
}
