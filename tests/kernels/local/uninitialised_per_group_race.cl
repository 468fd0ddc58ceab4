//xfail:NOT_ALL_VERIFIED
//--global_size=64 --local_size=8 --size out=1024 --checks=races --oclgrind-blind="the bytes an uninitialised local array holds (Oclgrind's are its own choice)"
//error: possible write-write race on out\[
/* Each work-group has its own local memory, so two groups' uninitialised `base[0]` may differ: the write
   of group 1 at base + 1 meets that of group 0 when group 0's base is one more. One array read by both
   work-items whatever their groups would have made base + group the same as base + 0 never. */
__kernel void k(__global int *out) {
  local int base[1];
  int g = get_group_id(0);
  if (get_local_id(0) == 0)
    out[(base[0] & 127) + g] = g;
}
