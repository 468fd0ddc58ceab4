//pass
//--local_size=8 --global_size=8 --size out=1024
/* The fixed twin of wrapping_product_race: a product that cannot wrap, so work-items 0 and 4 write apart
   (docs/semantics.md row 36). */
kernel void wrap(global int *out) {
  uint g = (uint)get_global_id(0);
  if (g % 4 == 0)
    out[g * 2u + 8u] = (int)g;
}
