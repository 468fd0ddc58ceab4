//pass
//--local_size=64 --global_size=256
kernel void histogram(global const int *in, global int *out, local int *bins) {
  size_t l = get_local_id(0);
  if (l < 16)
    bins[l] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_inc(&bins[in[get_global_id(0)] & 15]);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l < 16)
    atomic_add(&out[l], bins[l]);
}
