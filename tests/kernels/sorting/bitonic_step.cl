//pass
//--local_size=64 --global_size=64 --arg j=0x00000008 --arg k=0x00000010
kernel void bitonic(global int *a, uint j, uint k) {
  uint i = get_global_id(0);
  uint p = i ^ j;
  if (p > i) {
    int x = a[i], y = a[p];
    bool up = (i & k) == 0;
    if ((x > y) == up) {
      a[i] = y;
      a[p] = x;
    }
  }
}
