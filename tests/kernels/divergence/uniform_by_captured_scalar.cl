//pass
//--local_size=32 --global_size=64 --arg n=0x00000005
kernel void captured(global int *a, local int *t, int n) {
  size_t l = get_local_id(0);
  if (n > 3) {
    t[l] = 1;
    barrier(CLK_LOCAL_MEM_FENCE);
    a[get_global_id(0)] = t[31 - l];
  }
}
