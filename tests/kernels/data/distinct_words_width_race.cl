//xfail:NOT_ALL_VERIFIED
//--local_size=4 --global_size=4 --data tab=int:65538,131073 --size out=16
//write-write race on out\[[12]\]
/* The table's ints (0x00010002, 0x00020001) are distinct, its shorts (2, 1, 1, 2) are not: reads of shorts
   get the distinct-words fact (docs/semantics.md row 13c) only if the shorts are distinct. */
kernel void scatter(global const int *tab, global int *out) {
  size_t i = get_global_id(0);
  out[((global const short *)tab)[i]] = (int)i;
}
