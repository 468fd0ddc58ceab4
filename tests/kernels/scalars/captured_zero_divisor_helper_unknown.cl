//unknown
//--local_size=32 --global_size=64 --arg c=0x00000000
//unknown: not analysed: the launch's values make the kernel's behaviour undefined: an integer division .* at kernels/.*:8:
/* fz4005_24 as C-Reduce left it: the division in a helper, inlined before the launch's values are folded in;
   the same undefined quotient as captured_zero_divisor_unknown.cl. */
void a(global int *b, uint c) {
  uint d = get_global_id(0);
  b[d / c] = d;
}
kernel void fz4005_24(global int *b, uint c) { a(b, c); }
