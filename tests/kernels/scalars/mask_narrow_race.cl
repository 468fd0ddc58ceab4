//xfail:NOT_ALL_VERIFIED
//--local_size=64 --global_size=256 --arg mask=0x0000007F
//write-write race on a\[
/* The same ring buffer with mask 127: work-items i and i + 128 wrap to the same slot. */
kernel void ring(global int *a, uint mask) {
  uint i = get_global_id(0);
  a[i & mask] = (int)i;
}
