//xfail:NOT_ALL_VERIFIED
//--local_size=8,2 --global_size=16,4 --size out=1024
//possible write-write race on tmp\[[0-7]\]
/* The index ignores local dimension 1: work-items (x, 0) and (x, 1) of one group write one element of tmp,
   different values. In a same-group query the group ids are equal, but the unused local pair still tells
   the two work-items apart: the all-equal direction of the used ids is not the same work-item. */
kernel void tile(global int *out) {
  local int tmp[16];
  size_t x = get_local_id(0), y = get_local_id(1);
  tmp[x] = (int)get_global_id(1);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(1) * 16 + get_global_id(0)] = tmp[(x + 1) % 8];
}
