//pass
//--local_size=4 --global_size=4
kernel void hello(global int *a) {
  if (get_global_id(0) == 0)
    printf("hello\n");
  a[get_global_id(0)] = 1;
}
