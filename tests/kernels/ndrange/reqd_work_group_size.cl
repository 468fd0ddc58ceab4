//pass
//--global_size=64
/* No local size was captured, but the kernel requires 32: two groups, and the barrier separates the
   write of tmp from the neighbour's read. */
__attribute__((reqd_work_group_size(32, 1, 1)))
kernel void shift(global int *out) {
  local int tmp[32];
  size_t l = get_local_id(0);
  tmp[l] = (int)get_global_id(0);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tmp[(l + 1) % 32];
}
