//xfail:NOT_ALL_VERIFIED
//--global_size=64
//possible (write-read|read-write) race on tmp
/* The same without the barrier: with the required local size of 32, the neighbour's read races. */
__attribute__((reqd_work_group_size(32, 1, 1)))
kernel void shift(global int *out) {
  local int tmp[32];
  size_t l = get_local_id(0);
  tmp[l] = (int)get_global_id(0);
  out[get_global_id(0)] = tmp[(l + 1) % 32];
}
