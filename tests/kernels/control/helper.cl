//pass
//--local_size=32 --global_size=64
int twice(int x) { return 2 * x; }
void put(global int *a, size_t i, int v) { a[i] = twice(v); }
kernel void helper(global int *a) {
  size_t i = get_global_id(0);
  put(a, i, (int)i);
}
