//xfail:NOT_ALL_VERIFIED
//--local_size=32 --global_size=32
//race on a\[
/* Odd-even transposition sort in global memory with a compare-exchange that always writes (min, max),
   but the barrier only fences local memory: work-item l+1 writes a[2l+2] in phase 0 while work-item l
   reads it in phase 1, and nothing orders the two global accesses. */
kernel void odd_even(global int *a) {
  size_t l = get_local_id(0);
  for (int phase = 0; phase < 64; ++phase) {
    size_t i = 2 * l + (phase & 1);
    if (i + 1 < 64) {
      int x = a[i], y = a[i + 1];
      a[i] = min(x, y);
      a[i + 1] = max(x, y);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}
