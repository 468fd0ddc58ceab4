//xfail:NOT_ALL_VERIFIED
//--global_size=1 --local_size=1 --size out=16 --checks=all
//error: out-of-bounds write on out\[4\]
/* One work-item (a task launch) writes five ints into a buffer of four: a launch with no second work-item is
   still checked. */
__kernel void task(__global int *out) {
  for (int i = 0; i < 5; ++i)
    out[i] = i;
}
