//xfail:NOT_ALL_VERIFIED
//--global_size=64 --local_size=16 --size out=256 --arg where=0x0000000000000000
//error: possible write-write race on out\[0\]
/* The pair of captured_null_address_unknown: the store through the captured address is guarded, so with
   0 the kernel is defined and its race on out[0] is found. */
__kernel void poke(__global int *out, ulong where) {
  int *p = (int *)where;
  if (p)
    *p = 1;
  out[0] = get_global_id(0);
}
