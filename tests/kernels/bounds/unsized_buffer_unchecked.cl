//pass
//--global_size=1024 --local_size=64 --checks=all
/* No size in the capture (a GPUVerify-style header without --size): the accesses cannot be checked, the
   result says so (bounds_not_checked), and the verdict covers races and divergence. */
__kernel void scale(__global int *out) {
  int i = get_global_id(0);
  out[i] = 2 * i;
}
