//xfail:NOT_ALL_VERIFIED
//--local_size=32 --global_size=64 --arg n=0x2
//possible write-write race on out
/* The same with "0x2": work-items 0 and 1 both write out[0]. */
kernel void first(global int *out, int n) {
  if (get_global_id(0) < n)
    out[0] = (int)get_global_id(0);
}
