//xfail:NOT_ALL_VERIFIED
//--local_size=8 --global_size=8 --size out=1024
//possible write-write race on out\[8\]
/* A 32-bit product that wraps: work-items 0 and 4 both write out[8] (4 · 2^30 is 0 in 32 bits). An affine
   form that ignored the wrap-around would set them 2^32 elements apart; the dependence test (docs/semantics.md
   row 36) takes a product whose range does not fit its width as a whole (an atom), and the solver finds the
   race. */
kernel void wrap(global int *out) {
  uint g = (uint)get_global_id(0);
  if (g % 4 == 0)
    out[g * 0x40000000u + 8u] = (int)g;
}
