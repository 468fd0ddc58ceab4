//pass
//--local_size=16 --global_size=64
kernel void longs(global ulong *a) {
  size_t i = get_global_id(0);
  a[i] = (ulong)i << 40;
}
