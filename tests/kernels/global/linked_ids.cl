//pass
//--local_size=16 --global_size=16 --size out=2048
/* Work-item l writes out[20·l] and reads out[l + 21]. Taken apart, 20·x − y = 21 has solutions (x = 2,
   y = 19; x = 1, y = −1), but not with both local ids in [0, 15]: the dependence test (docs/semantics.md row 36)
   keeps the two ids of a pair linked when it fixes one of them. */
kernel void linked(global int *out) {
  size_t l = get_local_id(0);
  int v = out[l + 21];
  out[20 * l] = v;
}
