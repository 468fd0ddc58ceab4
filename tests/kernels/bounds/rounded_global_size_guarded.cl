//pass
//--global_size=1024 --local_size=64 --size out=4000 --size in=4000 --arg n=0xE8030000 --checks=all
/* The fixed form of rounded_global_size_race: a guard against the element count. */
__kernel void scale(__global int *out, __global const int *in, int n) {
  int i = get_global_id(0);
  if (i < n)
    out[i] = 2 * in[i];
}
