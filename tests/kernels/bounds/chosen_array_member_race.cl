//xfail:NOT_ALL_VERIFIED
//--global_size=4 --local_size=4 --size out=16 --checks=all --oclgrind-blind="MemCheck checks an array index where a load or store takes the address from the GEP itself, not through a select or phi"
//error: out-of-bounds write on s\[\d+\]
/* A pointer chosen between two array members: for i ≥ 2 it is &s.b[i], past `int b[2]` (inside the struct,
   C99 Annex J.2). The join must keep the flag of the pointer it takes: taking the first operand's lost it
   (`verified`). */
struct S {
  int a;
  int b[2];
  int c[4];
};
__kernel void pick(__global int *out) {
  volatile struct S s = {0, {1, 2}, {3, 4, 5, 6}};
  int i = get_global_id(0);
  volatile int *p = (i >= 2) ? &s.b[i] : &s.c[0];
  *p = i;
  out[i] = s.a;
}
