//pass
//--local_size=32 --global_size=128 --arg n=0x00000064
kernel void guarded(global float *a, int n) {
  int i = (int)get_global_id(0);
  if (i < n)
    a[i] = 0.0f;
}
