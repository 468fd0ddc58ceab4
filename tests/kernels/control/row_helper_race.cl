//xfail:NOT_ALL_VERIFIED
//--local_size=16 --global_size=64
//race on m\[
/* The caller passes rows 3 floats apart to a helper that touches 4: the last element of row i is the
   first of row i + 1, updated by two work-items through the helper's pointer. */
#define ROW 4
void scale_row(global float *row, float s) {
  for (int k = 0; k < ROW; ++k)
    row[k] *= s;
}
kernel void scale_rows(global float *m, global const float *factor) {
  size_t i = get_global_id(0);
  scale_row(m + i * (ROW - 1), factor[i]);
}
