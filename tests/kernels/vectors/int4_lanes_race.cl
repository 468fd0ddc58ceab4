//xfail:NOT_ALL_VERIFIED
//--local_size=32 --global_size=128
//write-write race on v\[
/* Work-item i writes lane i % 4 of vector i / 4 and also clears lane 0 of that vector: four work-items
   share each int4, and the lane-0 store of one overlaps the lane store of another. */
kernel void lanes(global int4 *v) {
  size_t i = get_global_id(0);
  global int *p = (global int *)&v[i / 4];
  p[i % 4] = (int)i;
  p[0] = 0;
}
