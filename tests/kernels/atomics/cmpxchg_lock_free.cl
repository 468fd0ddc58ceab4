//pass
//--local_size=32 --global_size=128
kernel void maxval(global const int *in, global int *m) {
  int v = in[get_global_id(0)];
  atomic_max(m, v);
}
