//pass
//--global_size=128
kernel void any_group(global int *a) {
  a[get_global_id(0)] = 7;
}
