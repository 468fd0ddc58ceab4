//unknown
//--global_size=64 --local_size=64 --size out=256 --checks=all
//unknown: .*a store through the constant address 0x10000, where the launch has no object
/* An address past the first page written as a constant: no object of the launch lies there, but the first
   page is all that is known to hold none, so the write is not taken for a null dereference. */
__kernel void poke(__global int *out) {
  int i = get_global_id(0);
  if (i == 3)
    *(__global int *)0x10000 = 1;
  out[i] = i;
}
