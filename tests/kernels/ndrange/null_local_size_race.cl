//xfail:NOT_ALL_VERIFIED
//--global_size=128
//race on a\[
kernel void any_group(global int *a) {
  a[get_local_id(0)] = (int)get_group_id(0);
}
