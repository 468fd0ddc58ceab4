//pass
//--local_size=16 --global_size=64 --flags=-DSTRIDE=1
kernel void def(global int *a) {
  a[get_global_id(0) * STRIDE] = 1;
}
