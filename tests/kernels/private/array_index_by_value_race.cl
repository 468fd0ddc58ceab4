//xfail:NOT_ALL_VERIFIED
//--local_size=64 --global_size=256 --size out=2048
//possible write-write race on out
/* The racy form of array_index_by_value: odd local ids write out[gid / 2], which even ones also write
   (work-items 0 and 1 both write out[0]); the witness follows the values through the private array. */
kernel void pick(global int *out) {
  size_t slot[2];
  slot[0] = get_global_id(0);
  slot[1] = get_global_id(0) / 2;
  out[slot[get_local_id(0) & 1]] = (int)get_global_id(0);
}
