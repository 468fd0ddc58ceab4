//pass
//--local_size=32 --global_size=64 --arg n=0x1
/* The captured value "0x1" is shorter than its int parameter: it is the int 1 (docs/contract.md §3), so only work-item
   0 writes. */
kernel void first(global int *out, int n) {
  if (get_global_id(0) < n)
    out[0] = (int)get_global_id(0);
}
