//pass
//--local_size=16 --global_size=64 --global_offset=32
/* offset_range_race with the bound past the last id (95): no work-item writes. */
kernel void offset_range(global int *a) {
  size_t i = get_global_id(0);
  if (i >= 96)
    a[0] = (int)i;
}
