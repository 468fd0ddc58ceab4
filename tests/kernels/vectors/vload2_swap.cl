//pass
//--local_size=32 --global_size=128
/* Swaps the halves of each float2 in place: vload2/vstore2 at index i touch floats 2i and 2i+1 only. */
kernel void swap_pairs(global float *a) {
  size_t i = get_global_id(0);
  float2 v = vload2(i, a);
  vstore2(v.yx, i, a);
}
