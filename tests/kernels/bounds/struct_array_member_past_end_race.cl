//xfail:NOT_ALL_VERIFIED
//--global_size=4 --local_size=4 --size output=4 --checks=all
//error: out-of-bounds write on s\[\d+\]
/* Oclgrind's memcheck/static_array: s.b[i] of `char b[2]` for i up to 3 stays inside the 8-byte struct (its
   padding) but indexes past the array (C99 §6.5.6 ¶8, Annex J.2). */
struct S {
  int a;
  char b[2];
};
__kernel void static_array(__global char *output) {
  volatile struct S s = {-1, {42, 7}};
  int i = get_global_id(0);
  s.b[i] = i;
  output[i] = s.b[i];
}
