//pass
//--global_size=16,16
kernel void any2(global int *a) {
  a[get_global_id(1) * 16 + get_global_id(0)] = (int)get_local_id(0);
}
