//xfail:NOT_ALL_VERIFIED
//--global_size=96
//write-write race on slots\[
/* Every work-item writes its group's slot: a race for any local size of two or more, and a NULL local
   size leaves that choice to the runtime. */
kernel void first_of_group(global int *slots) {
  slots[get_group_id(0)] = (int)get_local_id(0);
}
