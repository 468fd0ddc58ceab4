//pass
//--local_size=64 --global_size=256
kernel void counter(global int *count) {
  atomic_inc(count);
}
