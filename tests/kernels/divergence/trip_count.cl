//xfail:NOT_ALL_VERIFIED
//--local_size=8 --global_size=8
//barrier may be reached by non-uniform control flow
/* Odd work-items run the loop twice, even ones once: the barrier inside it is reached a different number
   of times within one group. The trip count is not constant but its maximum is (2): the loop is unrolled
   to that bound with its exits kept, and the second iteration's barrier diverges. */
kernel void trips(global int *out, local int *tmp) {
  size_t l = get_local_id(0);
  for (int i = 0; i < (int)(l % 2) + 1; ++i) {
    tmp[l] = i;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[l] = tmp[l];
}
