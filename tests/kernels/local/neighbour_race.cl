//xfail:NOT_ALL_VERIFIED
//--local_size=32 --global_size=64
//possible (write-read|read-write) race on tmp\[
kernel void neighbour(global int *out, local int *tmp) {
  size_t l = get_local_id(0);
  tmp[l] = (int)l;
  out[get_global_id(0)] = tmp[(l + 1) % get_local_size(0)];
}
