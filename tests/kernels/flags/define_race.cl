//xfail:NOT_ALL_VERIFIED
//--local_size=16 --global_size=64 --flags=-DSTRIDE=0
//write-write race on a\[0\]
kernel void def(global int *a) {
  a[get_global_id(0) * STRIDE] = (int)get_global_id(0);
}
