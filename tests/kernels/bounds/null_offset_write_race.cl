//xfail:NOT_ALL_VERIFIED
//--global_size=64 --local_size=64 --size out=256 --checks=all
//error: write through a null pointer
//write by work-item global \((1[6-9]|[2-6][0-9]), .*bytes\[5\] = 'a'
/* GPUVerify's null_pointers/null_pointer_choice in small: NULL plus a constant, which Clang folds to the
   integer address 5 (`inttoptr (i64 5 to ptr)`), written by the work-items past the first quarter. */
__kernel void pick(__global int *out) {
  int i = get_global_id(0);
  char *bytes = 0;
  if (i >= 16)
    bytes[5] = 'a';
  out[i] = i;
}
