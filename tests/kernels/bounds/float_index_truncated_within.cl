//pass
//--global_size=4 --local_size=4 --data key=int:0x00000000,0x3fd9999a,0x400ccccd,0x40600000 --size out=16 --checks=all
/* The index is a float converted to int, as OpenMM's sortBoxData reads a box index: (int) 0.0f, 1.7f, 2.2f,
   3.5f are 0, 1, 2, 3 (the conversion rounds toward zero, C99 6.3.1.4), so each work-item writes its own
   element of out's four (docs/semantics.md row 38). Rounded to nearest they would be 0, 2, 2, 4: a race and
   a write past the end. */
__kernel void place(__global const float *key, __global int *out) {
  int i = get_global_id(0);
  out[(int)key[i]] = i;
}
