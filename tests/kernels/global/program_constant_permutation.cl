//pass
//--local_size=8 --global_size=64 --size out=256
/* GPUVerify globalarray/pass: a program-scope `constant` array is read with its initialiser's values
   (OpenCL 1.2 §6.5.3: initialised at compile time, never written), here a permutation, so the writes
   are distinct. */
constant int perm[8] = {1, 0, 3, 2, 5, 4, 7, 6};
kernel void scatter(global int *out) {
  size_t g = get_group_id(0);
  out[g * 8 + perm[get_local_id(0)]] = (int)get_global_id(0);
}
