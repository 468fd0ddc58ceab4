//xfail:NOT_ALL_VERIFIED
//--local_size=32 --global_size=128 --arg shift=0x00000002
//write-write race on a\[
kernel void shifted(global int *a, int shift) {
  size_t i = get_global_id(0);
  a[i >> shift] = (int)i;
}
