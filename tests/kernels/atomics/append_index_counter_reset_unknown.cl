//unknown
//--local_size=32 --global_size=128 --data in=iota:128
//unknown: .*depending on the value atomic_inc returns
/* The counter is also reset by work-item 0 (a plain store): its results are no longer known to differ,
   so the verdict is unknown — the abstraction is named, never `verified`. */
kernel void append(global const int *in, global int *count, global int *out) {
  size_t i = get_global_id(0);
  if (i == 0)
    atomic_xchg(count, 0);
  int v = in[i];
  if (v > 0) {
    int k = atomic_inc(count);
    out[k] = v;
  }
}
