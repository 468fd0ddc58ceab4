//xfail:NOT_ALL_VERIFIED
//--local_size=32 --global_size=64
//write-write race on a\[
void put(global int *a, size_t i, int v) { a[i / 2] = v; }
kernel void helper(global int *a) {
  size_t i = get_global_id(0);
  put(a, i, (int)i);
}
