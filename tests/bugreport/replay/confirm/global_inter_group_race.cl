//confirmed
//--local_size=64 --global_size=256 --data out=int:0
/* Every group's first work-item writes out[0]: a write-write race between groups (tests/kernels/global). */
kernel void inter_group(global int *out) {
  size_t g = get_group_id(0);
  size_t l = get_local_id(0);
  if (l == 0)
    out[0] = (int)g;
}
