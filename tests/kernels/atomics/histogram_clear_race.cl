//xfail:NOT_ALL_VERIFIED
//--local_size=64 --global_size=256 --data in=iota:256
//race on bins\[
/* local_histogram.cl without the barrier after clearing the bins: work-item 1 may still be writing
   bins[1] = 0 while work-item 17 (value 17, bin 1) increments it atomically. */
kernel void histogram(global const int *in, global int *out, local int *bins) {
  size_t l = get_local_id(0);
  if (l < 16)
    bins[l] = 0;
  atomic_inc(&bins[in[get_global_id(0)] & 15]);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l < 16)
    atomic_add(&out[l], bins[l]);
}
