//pass
//--local_size=16 --global_size=64
/* `extern inline` is an external definition under C99 and an inline-only one under GNU89: either way Clang
   emits its body (KernelCompiler.h), so the store through slot() is seen and proven. */
extern inline int slot(int i) { return 2 * i + 1; }
kernel void k(global int *out) {
  int i = (int)get_global_id(0);
  out[slot(i)] = i;
}
