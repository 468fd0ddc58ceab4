//pass
//--local_size=16 --global_size=64 --entry=second
kernel void first(global int *a) { a[0] = (int)get_global_id(0); }
kernel void second(global int *a) { a[get_global_id(0)] = 1; }
