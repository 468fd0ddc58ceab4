//pass
//--local_size=64 --global_size=256 --arg n=0x00001000
kernel void grid_stride(global float *a, int n) {
  for (int i = (int)get_global_id(0); i < n; i += (int)get_global_size(0))
    a[i] *= 2.0f;
}
