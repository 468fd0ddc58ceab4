//pass
//--local_size=16 --global_size=32 --data first=iota:32 --data second=int:31,30,29,28,27,26,25,24,23,22,21,20,19,18,17,16,15,14,13,12,11,10,9,8,7,6,5,4,3,2,1,0
/* distinct_words_two_tables_race with the halves apart: even work-items through first to the lower half,
   odd ones through second to the upper half. */
kernel void scatter(global const int *first, global const int *second, global int *out) {
  size_t i = get_global_id(0);
  if (i % 2 == 0)
    out[first[i] / 2] = (int)i;
  else
    out[16 + second[i] / 2] = (int)i;
}
