//pass
//--global_size=64 --local_size=8 --size out=4096 --checks=races --oclgrind-blind="the bytes an uninitialised local array holds (Oclgrind's are its own choice)"
/* Within one work-group both reads of the uninitialised `base[0]` see the same bytes (nothing writes
   them), so the work-items' slots base + l, offset by the group's own 64, never meet. */
__kernel void k(__global int *out) {
  local int base[1];
  int l = get_local_id(0), g = get_group_id(0);
  out[g * 128 + (base[0] & 63) + l] = l;
}
