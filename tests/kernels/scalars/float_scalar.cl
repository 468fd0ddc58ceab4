//pass
//--local_size=32 --global_size=128 --arg alpha=0x40490FDB
kernel void scale(global float *a, float alpha) {
  size_t i = get_global_id(0);
  a[i] *= alpha;
}
