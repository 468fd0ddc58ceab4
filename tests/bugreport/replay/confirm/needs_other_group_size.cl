//not observed with this input
//--global_size=16 --data out=iota:16
/* The application passed no local size (NULL), so the capture has none and clcapture-verify considers every
   legal work-group size (docs/contract.md §5): with groups of more than one work-item, the work-items of a group all
   write out[group]. The witness needs a launch the captured one does not pin down: given NULL, Oclgrind
   runs groups of one work-item (Oclgrind 21.10), so replaying the capture does not show the race. */
kernel void group_leader(global int *out) {
  if (get_local_size(0) > 1)
    out[get_group_id(0)] = (int)get_local_id(0);
}
