//xfail:NOT_ALL_VERIFIED
//--local_size=16 --global_size=64 --size out=1024 --data table=int:0,2,0,2,0,2,0,2
//possible write-write race on out
/* The racy counterpart of exit_value_load_unknown: two work-items store to one element whatever value v
   leaves the loop with, so the open exit value does not hide the race. */
kernel void k(global const int *table, global int *out, int n) {
  int v, j = 0;
  do {
    v = table[j];
  } while (++j < n);
  out[get_global_id(0) / 2] = get_global_id(0) + v;
}
