//unknown
//--global_size=128 --local_size=64 --data idx=iota:1024 --data shift=iota:2048 --size tab=256 --size out=512 --checks=all
//unknown: .*access at kernels/guarded_table_indices_shifted_unknown.cl:16:14
/* As bounds/guarded_table_indices_within, each index shifted by shift[g] (0 to 2047, captured but too large
   to read exactly): work-item 1 reads tab[63 + 1], one past tab's 64 ints. With the table reads left open
   the query is satisfiable, and a satisfiable weakening proves nothing (docs/semantics.md row 37g): taken
   as a proof, this launch came out `verified`. The shift is not read exactly, so the access is a possible
   out-of-bounds one, `unknown`, however long the full query takes. */
__kernel void gather(__global const unsigned *idx, __global const unsigned *shift, __global const int *tab,
                     __global int *out) {
  unsigned g = get_global_id(0);
  int sum = 0;
  for (unsigned k = 0; k < 8; k++) {
    unsigned j = idx[g * 8 + k];
    if (j < 64)
      sum += tab[j + shift[g]];
  }
  out[g] = sum;
}
