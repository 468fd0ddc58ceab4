//xfail:NOT_ALL_VERIFIED
//--local_size=16 --global_size=64 --arg d=0xFFFFFFFF
//race on out
/* Each work-item writes its element and reads the one `d` before it (d = -1): the read meets the previous
   work-item's write. The index i + d wraps in 32 bits, so its sign extension is not a zero extension
   (Terms.h upperBound: a sum that may carry out of its width has no bound). */
kernel void shift(global int *out, global int *got, int d) {
  int i = (int)get_global_id(0);
  out[i] = i;
  if (i > 0)
    got[i] = out[i + d];
}
