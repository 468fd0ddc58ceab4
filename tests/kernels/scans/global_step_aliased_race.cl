//xfail:NOT_ALL_VERIFIED
//--local_size=64 --global_size=256 --arg d=0x00000004 --alias out=in
//race on (in|out)\[
/* The host passes the same buffer as `in` and `out` to save memory: work-item i reads element i - d
   while work-item i - d writes it. */
kernel void scan_step(global const int *in, global int *out, uint d) {
  uint i = get_global_id(0);
  out[i] = i >= d ? in[i] + in[i - d] : in[i];
}
