//xfail:NOT_ALL_VERIFIED
//--local_size=16 --global_size=32 --data first=iota:32 --data second=int:31,30,29,28,27,26,25,24,23,22,21,20,19,18,17,16,15,14,13,12,11,10,9,8,7,6,5,4,3,2,1,0
//write-write race on out\[
/* Each table is a permutation (distinct words), but even work-items scatter through one and odd ones
   through the other: work-items 1 and 30 both write out[30]. The distinct-words fact (docs/semantics.md
   row 13c) pairs reads of one table only. */
kernel void scatter(global const int *first, global const int *second, global int *out) {
  size_t i = get_global_id(0);
  if (i % 2 == 0)
    out[first[i]] = (int)i;
  else
    out[second[i]] = (int)i;
}
