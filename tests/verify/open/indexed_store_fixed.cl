//pass
//--local_size=16 --global_size=16 --data idx=iota:16
/* Fixed pair of indexed_store_race.cl: the table picks what is read, not where it is written: verified for
   every table (--open=data). */
kernel void indexed_store_fixed(global int *out, global const int *in, global const int *idx) {
  size_t i = get_global_id(0);
  out[i] = in[idx[i] & 15];
}
