kernel void broken(global int *a) {
  a[get_global_id(0)] = undeclared_value;
}
