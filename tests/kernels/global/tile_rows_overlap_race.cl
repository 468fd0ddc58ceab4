//xfail:NOT_ALL_VERIFIED
//--local_size=16 --global_size=64 --size out=1024
//possible write-write race on out\[(15|30|45)\]
/* Each group writes a row of 16 at a stride of 15: the last work-item of group g and the first of group
   g + 1 write one element. The dependence test (docs/semantics.md row 36) must find a direction (group
   ids apart by one, local ids 15 and 0) whose difference reaches the window and keep the pair. */
kernel void rows(global int *out) {
  out[get_group_id(0) * 15 + get_local_id(0)] = (int)get_global_id(0);
}
