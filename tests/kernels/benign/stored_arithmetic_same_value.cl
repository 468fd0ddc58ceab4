//pass
//--local_size=32 --global_size=64
//possible benign write-write race on flag
/* The fixed twin of stored_arithmetic_differs_race: every work-item stores the same arithmetic on in[0]
   (read-only, so both read one value): a benign race, found only with the stored values in the dependence
   slice (docs/semantics.md row 33). */
kernel void stored_arithmetic(global const int *in, global int *flag) {
  int x = in[0];
  flag[0] = (x * x) ^ 3;
}
