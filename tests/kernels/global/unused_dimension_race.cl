//xfail:NOT_ALL_VERIFIED
//--local_size=8,2 --global_size=16,2 --size out=1024
//possible write-write race on out\[
/* The address ignores dimension 1: work-items (x, 0) and (x, 1) write one element. Their ids in dimension 0
   are equal, so only the directions of dimension 1's ids tell them apart: the dependence test (docs/semantics.md
   row 36) may skip the all-equal direction only over every id of the launch, never over those the address
   uses. */
kernel void columns(global int *out) {
  out[get_global_id(0)] = (int)get_global_id(1);
}
