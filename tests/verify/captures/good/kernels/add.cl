__kernel void add(__global int *a, int n) {
  size_t i = get_global_id(0);
  if (i < n)
    a[i] += 1;
}
