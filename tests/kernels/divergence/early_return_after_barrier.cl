//pass
//--local_size=32 --global_size=64
kernel void early(global int *a, local int *t) {
  size_t l = get_local_id(0);
  t[l] = 1;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l == 7)
    return;
  a[get_global_id(0)] = t[31 - l];
}
