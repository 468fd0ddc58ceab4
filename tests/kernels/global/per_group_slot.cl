//pass
//--local_size=64 --global_size=256
kernel void per_group(global int *out) {
  if (get_local_id(0) == 0)
    out[get_group_id(0)] = 1;
}
