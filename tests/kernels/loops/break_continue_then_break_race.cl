//xfail:NOT_ALL_VERIFIED
//--local_size=16 --global_size=64
//write-write race on a\[
/* The break comes two iterations too late: at k = 4 and 5 work-item i writes 4(i + 1) and 4(i + 1) + 1,
   the first elements of work-item i + 1's block. The continue comes before the break, as in
   break_continue_then_break.cl (break_late_race.cl has the break first). */
kernel void fill_block(global int *a) {
  size_t i = get_global_id(0);
  for (int k = 0; k < 8; ++k) {
    if (k == 1)
      continue;
    if (k == 6)
      break;
    a[i * 4 + k] = k;
  }
}
