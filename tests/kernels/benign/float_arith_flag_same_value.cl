//pass
//--global_size=128 --local_size=64 --size pos=512 --size flag=4
//verified: a same-value race between .*:10:.* may occur, depending on a floating-point value
/* OpenMM's sortBoxData: every work-item whose atom moved too far sets one flag. Whether two of them write
   depends on floating-point arithmetic, which the encoding does not model (the product is open); but every
   writer stores 1, so the race is benign if it happens: verified, with that named (docs/contract.md §4). */
kernel void float_arith_flag(global const float *pos, global int *flag) {
  float d = pos[get_global_id(0)];
  if (d * d > 0.25f)
    flag[0] = 1;
}
