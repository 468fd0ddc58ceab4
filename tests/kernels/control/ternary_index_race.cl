//xfail:NOT_ALL_VERIFIED
//--local_size=32 --global_size=64
//write-write race on a\[
kernel void tern(global int *a) {
  size_t i = get_global_id(0);
  a[i % 2 == 0 ? i / 2 : 31 + i / 2] = (int)i;
}
