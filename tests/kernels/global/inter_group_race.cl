//xfail:NOT_ALL_VERIFIED
//--local_size=64 --global_size=256
//race on out\[
kernel void inter_group(global int *out) {
  size_t g = get_group_id(0);
  size_t l = get_local_id(0);
  if (l == 0)
    out[0] = (int)g;
}
