//pass
//--local_size=64 --global_size=256 --arg mask=0x000000FF
/* A ring buffer indexed with `i & mask`: with mask 255 and 256 work-items the indices are distinct. */
kernel void ring(global int *a, uint mask) {
  uint i = get_global_id(0);
  a[i & mask] = (int)i;
}
