//unknown
//--global_size=64 --local_size=64 --size out=256 --size idx=256 --checks=all
//unknown: .*possible out-of-bounds access at .*depending on
/* The index is read from memory the launch also writes: its value is not known, so neither is whether
   out[idx[i]] stays inside `out`. */
__kernel void gather(__global int *out, __global int *idx) {
  int i = get_global_id(0);
  out[i] = out[idx[i]];
  idx[i] = 0;
}
