//xfail:NOT_ALL_VERIFIED
//--local_size=16 --global_size=64
//race on a\[
/* The load is one float off: vload4(0, a + 4i + 1) reads 4i+1..4i+4, and element 4i+4 is the first
   float work-item i + 1 stores with vstore4. */
kernel void normalise(global float *a) {
  size_t i = get_global_id(0);
  float4 v = vload4(0, a + 4 * i + 1);
  vstore4(v / (v.x + v.y + v.z + v.w), i, a);
}
