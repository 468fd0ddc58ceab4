//pass
//--global_size=128 --local_size=64 --data idx=iota:1024 --size tab=256 --size out=512 --checks=all
/* Eight indices read from a captured 4 KiB table (each read a choice among its 1,024 words), each used only
   under `j < 64`: the guard alone keeps tab[j] inside tab's 64 ints. The bounds query is large, so it is
   first asked with the table reads left open (docs/semantics.md row 37g), which settles it; OpenMM's
   computeNonbonded reads its atom indices this way. */
__kernel void gather(__global const unsigned *idx, __global const int *tab, __global int *out) {
  unsigned g = get_global_id(0);
  int sum = 0;
  for (unsigned k = 0; k < 8; k++) {
    unsigned j = idx[g * 8 + k];
    if (j < 64)
      sum += tab[j];
  }
  out[g] = sum;
}
