//xfail:NOT_ALL_VERIFIED
//--global_size=64 --local_size=64 --size out=512 --checks=all
//error: out-of-bounds read on a\[
/* Oclgrind's memcheck/casted_static_array in small: a private struct initialised from constants and an
   address is copied from an initialiser Clang keeps in private memory (`@constinit`, read by memcpy), then
   read through a pointer at grid[i] for i up to 8: past the array grid (5 rows), though still inside the
   struct. */
union U { short s; int i; };
struct S { union U grid[5][7][2]; union U **links[8]; };
__kernel void k(__global ulong *out) {
  struct S a;
  struct S *p = &a;
  union U *slot;
  struct S b = {{{{{0x54}}}}, {&slot}};
  a = b;
  ulong sum = 0;
  for (int i = 0; i < 9; i++)
    sum += p->grid[i][0][0].s;
  out[get_global_id(0)] = sum;
}
