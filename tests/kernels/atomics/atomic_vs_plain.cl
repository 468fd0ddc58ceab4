//xfail:NOT_ALL_VERIFIED
//--local_size=64 --global_size=256
//race on count
kernel void mixed(global int *count, global int *out) {
  atomic_add(count, 1);
  if (get_global_id(0) == 3)
    out[0] = *count;
}
