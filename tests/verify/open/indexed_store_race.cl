//pass
//--local_size=16 --global_size=16 --data idx=iota:16
/* Racy pair of --open=data: the captured index table is a permutation (verified), but a table with a
   repeated entry makes two work-items write one element: --open=data finds it, and the witness names the
   two entries (idx[14] = 7 and idx[15] = 7). */
kernel void indexed_store(global int *out, global const int *idx) {
  size_t i = get_global_id(0);
  out[idx[i] & 15] = (int)i;
}
