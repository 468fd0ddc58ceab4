//unknown
//--local_size=32 --global_size=128 --data in=iota:128
//unknown: possible race .*depending on the value atomic_inc returns
/* The slot is taken modulo 16: counter values 3 and 19 share out[3] — a real race, but a witness needs
   two counter values, which no capture holds (the counter's results are open, only known to differ).
   Precision gap: unknown with the abstraction named, never `verified`. */
kernel void append(global const int *in, global int *count, global int *out) {
  size_t i = get_global_id(0);
  int v = in[i];
  if (v > 0) {
    int k = atomic_inc(count);
    out[k % 16] = v;
  }
}
