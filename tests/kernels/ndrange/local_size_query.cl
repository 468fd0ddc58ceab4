//pass
//--local_size=16 --global_size=64
kernel void query(global int *a) {
  a[get_group_id(0) * get_local_size(0) + get_local_id(0)] = (int)get_num_groups(0);
}
