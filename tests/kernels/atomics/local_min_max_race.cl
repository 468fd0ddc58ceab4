//xfail:NOT_ALL_VERIFIED
//--local_size=64 --global_size=256
//race on (lo|hi)
/* The barrier after the atomics is missing: work-item 0 reads lo and hi with plain loads while other
   work-items of its group may still be updating them atomically. */
kernel void range(global const int *in, global int *out) {
  local int lo, hi;
  size_t l = get_local_id(0);
  if (l == 0) { lo = INT_MAX; hi = INT_MIN; }
  barrier(CLK_LOCAL_MEM_FENCE);
  int v = in[get_global_id(0)];
  atomic_min(&lo, v);
  atomic_max(&hi, v);
  if (l == 0)
    out[get_group_id(0)] = hi - lo;
}
