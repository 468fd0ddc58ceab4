//xfail:NOT_ALL_VERIFIED
//--global_size=64 --local_size=32
//write-write race on v\[
/* The odd work-item writes .x too: both write v[i / 2].x, with different values. */
kernel void split(global int2 *v) {
  size_t i = get_global_id(0);
  if (i % 2 == 0)
    v[i / 2].x = (int)i;
  else
    v[i / 2].x = -(int)i;
}
