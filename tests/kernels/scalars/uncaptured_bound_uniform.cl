//pass
//--local_size=32 --global_size=64
/* The condition is the same for every work-item of a group, whatever the uncaptured `n` is. */
kernel void bounded(global int *out, local int *tmp, uint n) {
  size_t l = get_local_id(0);
  tmp[l] = 1;
  if (get_group_id(0) < n)
    barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tmp[l];
}
