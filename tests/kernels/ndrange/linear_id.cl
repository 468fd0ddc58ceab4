//pass
//--local_size=4,4 --global_size=8,8 --flags=-cl-std=CL2.0
kernel void linear(global int *a) {
  a[get_global_linear_id()] = (int)get_local_linear_id();
}
