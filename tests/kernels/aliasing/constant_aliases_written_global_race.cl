//xfail:NOT_ALL_VERIFIED
//--local_size=32 --global_size=64 --alias table=out
//possible (write-read|read-write) race on (out|table)
/* The constant argument is the same buffer as the written global one (the capture's memory objects say
   so): work-item i writes out[i] while work-item i + 1 reads table[i]. */
kernel void shift(constant int *table, global int *out) {
  size_t i = get_global_id(0);
  out[i] = table[(i + 63) % 64] + 1;
}
