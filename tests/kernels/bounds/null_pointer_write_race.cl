//xfail:NOT_ALL_VERIFIED
//--global_size=64 --local_size=64 --size out=256 --checks=all
//error: write through a null pointer
/* A pointer chosen by a condition that leaves it NULL for some work-items, written without a check. */
__kernel void pick(__global int *out) {
  int i = get_global_id(0);
  __global int *target = (i % 4 == 0) ? out : 0;
  target[i / 4] = i;
}
