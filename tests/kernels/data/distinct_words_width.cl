//pass
//--local_size=4 --global_size=4 --data tab=int:65536,196610 --size out=16
/* distinct_words_width_race with shorts 0, 1, 2, 3. */
kernel void scatter(global const int *tab, global int *out) {
  size_t i = get_global_id(0);
  out[((global const short *)tab)[i]] = (int)i;
}
