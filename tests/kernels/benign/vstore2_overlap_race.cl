//xfail:NOT_ALL_VERIFIED
//--local_size=8 --global_size=8 --size p=64
//possible write-write race on p
/* Every work-item stores the same int2 (1, 2), one element apart: p[i + 1] gets 2 from work-item i and
   1 from work-item i + 1. Equal values, different bytes where they overlap: not benign. */
kernel void overlap(global int *p) {
  vstore2((int2)(1, 2), 0, p + get_global_id(0));
}
