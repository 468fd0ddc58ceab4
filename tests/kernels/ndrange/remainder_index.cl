//pass
//--local_size=54 --global_size=216 --size a=4096
/* remainder_index_race with OpenCV's butterfly index ((x - k) * 3 + k, k = x % 20): one place per work-item. */
kernel void remainder_index(global int *a) {
  int x = (int)get_local_id(0);
  int k = x % 20;
  a[(int)get_group_id(0) * 162 + (x - k) * 3 + k] = x;
}
