//pass
//--local_size=32 --global_size=128 --data in=iota:128
/* Stream compaction: each work-item with a positive input takes the next slot from an atomic counter.
   Two work-items' atomic_inc of one counter return different values, so their writes never meet. */
kernel void append(global const int *in, global int *count, global int *out) {
  size_t i = get_global_id(0);
  int v = in[i];
  if (v > 0) {
    int k = atomic_inc(count);
    out[k] = v;
  }
}
