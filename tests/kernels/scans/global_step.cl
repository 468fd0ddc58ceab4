//pass
//--local_size=64 --global_size=256 --arg d=0x00000004
/* One Hillis-Steele step of a global scan, launched once per distance d: reading `in` and writing a
   separate `out` buffer makes each step race free whatever d is. */
kernel void scan_step(global const int *in, global int *out, uint d) {
  uint i = get_global_id(0);
  out[i] = i >= d ? in[i] + in[i - d] : in[i];
}
