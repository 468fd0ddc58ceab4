//xfail:NOT_ALL_VERIFIED
//--local_size=16 --global_size=64 --data lut=int:5,2,7,0,3,6,2,4
//write-write race on out\[
/* The captured table maps both 1 and 6 to column 2: work-items 1 and 6 of each row store to the same
   element. Only the table's contents distinguish this from constant_lut_scatter.cl. */
kernel void scatter(constant int *lut, global const int *in, global int *out) {
  size_t i = get_global_id(0);
  out[(i / 8) * 8 + lut[i % 8]] = in[i];
}
