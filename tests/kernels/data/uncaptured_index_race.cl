//xfail:NOT_ALL_VERIFIED
//--local_size=8 --global_size=16
//possible write-write race on out\[[0-9]+\] with idx\[[0-9]+\] = [0-9]+ and idx\[[0-9]+\] = [0-9]+
/* idx is read-only and the capture has no bytes for it (metadata-only mode): docs/contract.md §5, missing values are
   unconstrained, and both work-items read one memory — two equal entries make a race, and the witness
   names them. */
kernel void gather(global const int *idx, global int *out) {
  size_t i = get_global_id(0);
  out[idx[i]] = (int)i;
}
