//xfail:NOT_ALL_VERIFIED
//--local_size=32 --global_size=64
//write-write race on s\[
/* Even work-items store an int over two shorts, odd ones store the upper short of the same int:
   the 2-byte store lies inside the 4-byte one. */
kernel void halves(global short *s) {
  size_t i = get_global_id(0);
  if (i % 2 == 0)
    *(global int *)(s + i) = 0;
  else
    s[i] = 1;
}
