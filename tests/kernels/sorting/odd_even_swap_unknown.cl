//unknown
//--local_size=32 --global_size=32
//unknown: possible race .*depending on a value read from global memory
/* The same missing global fence, but each swap happens only when the two values read are out of order:
   whether a write happens depends on values read from a buffer the kernel also writes, which the
   adversarial abstraction leaves open. The verdict is unknown with that reason — never verified. */
kernel void odd_even(global int *a) {
  size_t l = get_local_id(0);
  for (int phase = 0; phase < 64; ++phase) {
    size_t i = 2 * l + (phase & 1);
    if (i + 1 < 64) {
      int x = a[i], y = a[i + 1];
      if (x > y) {
        a[i] = y;
        a[i + 1] = x;
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}
