//unknown
//--local_size=64 --global_size=64 --arg j=0x00000008 --arg k=0x00000010
//unknown: possible race .*depending on a value read from global memory
/* The swaps that overlap are guarded by comparisons of values the kernel reads from a buffer it also
   writes: the adversarial abstraction leaves them open, so the verdict is unknown (never verified). */
kernel void bitonic(global int *a, uint j, uint k) {
  uint i = get_global_id(0);
  uint p = (i + j) % 64;
  if (p > i) {
    int x = a[i], y = a[p];
    bool up = (i & k) == 0;
    if ((x > y) == up) {
      a[i] = y;
      a[p] = x;
    }
  }
}
