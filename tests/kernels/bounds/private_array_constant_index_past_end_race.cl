//xfail:NOT_ALL_VERIFIED
//--global_size=64 --local_size=64 --size out=256 --checks=all --oclgrind-blind="Oclgrind's compiler deletes the access past the end (undefined behaviour at a constant offset)"
//error: out-of-bounds write on a\[4\]
/* A private array written at a constant index one past its end: SROA deleted that write as dead (undefined
   behaviour) while splitting the array, and the launch came out `verified`. */
__kernel void k(__global int *out) {
  int i = get_global_id(0);
  int a[4] = {0, 1, 2, 3};
  if (i == 7)
    a[4] = i;
  out[i] = a[0] + a[3];
}
