//xfail:NOT_ALL_VERIFIED
//--global_size=1024 --local_size=64 --size out=4000 --size in=4000 --open=scalars
//error: out-of-bounds read on in\[1000\] with n = 1001\b
/* bounds/rounded_global_size_guarded proven for every element count (--open=scalars): the guard `i < n`
   keeps work-items inside the 1000-int buffers only while n <= 1000. The witness names the least count
   that takes work-item 1000 past the end: n = 1001, not just any count that does. */
__kernel void scale(__global int *out, __global const int *in, int n) {
  int i = get_global_id(0);
  if (i < n)
    out[i] = 2 * in[i];
}
