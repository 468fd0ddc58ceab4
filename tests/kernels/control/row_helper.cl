//pass
//--local_size=16 --global_size=64
/* A helper takes a pointer to the work-item's row and scales it in a loop: rows start 4 floats apart
   and are 4 floats long, so the helper's accesses from different work-items never meet. */
#define ROW 4
void scale_row(global float *row, float s) {
  for (int k = 0; k < ROW; ++k)
    row[k] *= s;
}
kernel void scale_rows(global float *m, global const float *factor) {
  size_t i = get_global_id(0);
  scale_row(m + i * ROW, factor[i]);
}
