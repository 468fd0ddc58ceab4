//xfail:NOT_ALL_VERIFIED
//--local_size=8 --global_size=64 --size out=256
//possible write-write race on out
//local \(7, 0, 0\)
/* The racy form of program_constant_permutation: the table repeats 7, so local ids 6 and 7 write one
   element — the witness names them. */
constant int perm[8] = {1, 0, 3, 2, 5, 4, 7, 7};
kernel void scatter(global int *out) {
  size_t g = get_group_id(0);
  out[g * 8 + perm[get_local_id(0)]] = (int)get_global_id(0);
}
