//pass
//--local_size=8,2 --global_size=16,4 --size out=1024
/* Each work-item of a group writes its own element of tmp (both local ids in the index), so within a group
   no two work-items meet. A same-group query fixes the group ids equal; the dependence test (docs/semantics.md
   row 36) then skips the all-equal direction of the local ids, which is the same work-item. */
kernel void tile(global int *out) {
  local int tmp[16];
  size_t x = get_local_id(0), y = get_local_id(1);
  tmp[x + 8 * y] = (int)get_global_id(0);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(1) * 16 + get_global_id(0)] = tmp[(x + 1) % 8 + 8 * y];
}
