//xfail:NOT_ALL_VERIFIED
//--local_size=8 --global_size=8 --size out=1024
//possible write-write race on out\[(0|64|128|192)\]
/* The index wraps in 8 bits: work-items 0 and 4 both write out[0] ((uchar)(4 * 64) == 0). An affine form of
   the index that ignored the wrap-around would keep them apart; the dependence test (docs/semantics.md row
   36) takes a node whose range does not fit its width as a whole (an atom), and the solver finds the race. */
kernel void wrap(global int *out) {
  uchar i = (uchar)(get_global_id(0) * 64);
  out[i] = (int)get_global_id(0);
}
