//pass
//--global_size=96
/* No local size: the runtime picks any divisor of 96. Whatever it picks, only the first work-item of a
   group writes, and it writes its own group's slot. */
kernel void first_of_group(global int *slots) {
  if (get_local_id(0) == 0)
    slots[get_group_id(0)] = (int)get_local_size(0);
}
