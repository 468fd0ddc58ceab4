//xfail:NOT_ALL_VERIFIED
//--local_size=4,1 --global_size=16,4 --global_offset=0,2
//write-write race on a\[
/* The offset [0, 2] comes from the sidecar (captures.json cannot carry a 0): row 5 exists only with it,
   and its 16 work-items all write a[0]. */
kernel void rows(global int *a) {
  size_t x = get_global_id(0), y = get_global_id(1);
  if (y == 5)
    a[0] = (int)x;
}
