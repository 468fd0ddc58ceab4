//xfail:NOT_ALL_VERIFIED
//--local_size=54 --global_size=216 --size a=4096
//possible write-write race on a\[
/* OpenCV's FFT butterflies index with `x % block_size` on an int local id. The launch bounds the id
   (0..53), so the signed remainder becomes an 8-bit unsigned one (CorrelatedValuePropagation) and the ids
   are 6-bit solver variables. Here local ids x and x + 20 share k and race. */
kernel void remainder_index(global int *a) {
  int x = (int)get_local_id(0);
  int k = x % 20;
  a[(int)get_group_id(0) * 162 + k] = x;
}
