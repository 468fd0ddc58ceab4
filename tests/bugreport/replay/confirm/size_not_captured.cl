//not replayable: argument 0 \(out\): the buffer's size was not captured
//--local_size=64 --global_size=256
/* The corpus form of tests/kernels/global/inter_group_race.cl: no size and no bytes for out, which the
   analysis does not need and a replay does. */
kernel void inter_group(global int *out) {
  if (get_local_id(0) == 0)
    out[0] = (int)get_group_id(0);
}
