//pass
//--local_size=8 --global_size=8 --size out=1024
/* The fixed twin of wrapping_index_race: (uchar)(gid * 32) stays below 256 for 8 work-items, no wrap-around,
   so every work-item writes its own element (docs/semantics.md row 36). */
kernel void wrap(global int *out) {
  uchar i = (uchar)(get_global_id(0) * 32);
  out[i] = (int)get_global_id(0);
}
