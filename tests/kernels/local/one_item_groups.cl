//pass
//--local_size=1 --global_size=8 --size out=32 --size tmp=4
/* Groups of one work-item (OpenMM's computeNonbonded on a CPU device runs with a local size of 1): local
   memory and barriers are each work-item's own, so neither the write to tmp[0] nor the barrier only some
   work-items reach can race or diverge. The encoder then states no same-group fact and asks no same-group
   query (docs/semantics.md row 18a). */
kernel void one_item(global int *out, local int *tmp) {
  size_t i = get_global_id(0);
  tmp[0] = (int)i;
  if (i % 2 == 0)
    barrier(CLK_LOCAL_MEM_FENCE);
  out[i] = tmp[0];
}
