//pass
//--local_size=16 --global_size=64 --data lut=int:5,2,7,0,3,6,1,4
/* Scatter through a constant-memory lookup table whose captured contents are a permutation of 0..7:
   the column lut[i % 8] differs for the 8 work-items of a row, so all stores are distinct. */
kernel void scatter(constant int *lut, global const int *in, global int *out) {
  size_t i = get_global_id(0);
  out[(i / 8) * 8 + lut[i % 8]] = in[i];
}
