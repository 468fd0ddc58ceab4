//xfail:NOT_ALL_VERIFIED
//--local_size=16 --global_size=64
//race on out
/* As inline_helper, but the helper maps two work-items to one element (i / 2): a write-write race. */
inline int slot(int i) { return i / 2; }
kernel void k(global int *out) {
  int i = (int)get_global_id(0);
  out[slot(i)] = i;
}
