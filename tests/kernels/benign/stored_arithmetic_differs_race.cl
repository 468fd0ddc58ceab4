//xfail:NOT_ALL_VERIFIED
//--local_size=32 --global_size=64
//write-write race on flag
/* Every work-item stores a value computed from its own element of a read-only buffer at flag[0]: the values
   differ (in[0] and in[1] may differ), so the race is harmful. The same-value test needs the stored
   arithmetic, which the dependence slice holds only for plain writes' values (docs/semantics.md row 33): it
   must not end `verified` as a benign race. */
kernel void stored_arithmetic(global const int *in, global int *flag) {
  int x = in[get_global_id(0)];
  flag[0] = (x * x) ^ 3;
}
