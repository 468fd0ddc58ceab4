//xfail:NOT_ALL_VERIFIED
//--local_size=16 --global_size=64 --global_offset=32
//possible write-write race on a\[0\]
/* Work-item queries carry their launch's range into LLVM (!range, for CorrelatedValuePropagation) and into
   the solver (ids of the fewest bits): with an offset of 32 the global ids are 32..95, not 0..63, so
   `i >= 64` holds for 32 of them, and they race on a[0]. A range that forgot the offset would fold the
   branch away and call this verified. */
kernel void offset_range(global int *a) {
  size_t i = get_global_id(0);
  if (i >= 64)
    a[0] = (int)i;
}
