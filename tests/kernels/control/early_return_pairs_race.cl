//xfail:NOT_ALL_VERIFIED
//--local_size=32 --global_size=128
//write-write race on a\[
/* The early return filters multiples of 3 instead of odd ids: work-items 1 and 2 both stay, and both
   write element 2. */
kernel void pairs(global int *a) {
  size_t i = get_global_id(0);
  if (i % 3 == 0)
    return;
  a[i] = 1;
  a[i + 1] = 2;
}
