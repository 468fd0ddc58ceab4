//pass
//--global_size=64 --local_size=64 --size out=1024 --checks=all --flags=-cl-std=CL2.0
/* No function of the program writes `table`, so it holds its initialiser in every launch: the indices
   table[i % 4] * 64 + i are distinct and inside `out` only because table[3] is 0 (docs/semantics.md row
   37k). */
global int table[4] = {1, 2, 3, 0};
__kernel void k(__global int *out) {
  int i = get_global_id(0);
  out[table[i % 4] * 64 + i] = i;
}
