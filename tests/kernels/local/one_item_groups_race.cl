//xfail:NOT_ALL_VERIFIED
//--local_size=2 --global_size=8 --size out=32 --size tmp=4
//barrier may be reached by non-uniform control flow
//race on tmp\[0\]
/* one_item_groups with two work-items per group: they share tmp[0] and disagree on the barrier. */
kernel void one_item(global int *out, local int *tmp) {
  size_t i = get_global_id(0);
  tmp[0] = (int)i;
  if (i % 2 == 0)
    barrier(CLK_LOCAL_MEM_FENCE);
  out[i] = tmp[0];
}
