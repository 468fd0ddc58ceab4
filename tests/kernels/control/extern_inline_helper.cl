//pass
//--local_size=16 --global_size=64
/* `extern inline` keeps C99's meaning (an external definition, so its body is compiled): GNU89 semantics,
   used for plain `inline` helpers, would drop it. */
extern inline int slot(int i) { return 2 * i + 1; }
kernel void k(global int *out) {
  int i = (int)get_global_id(0);
  out[slot(i)] = i;
}
