//pass
//--local_size=32 --global_size=128 --flags=-cl-std=CL2.0
kernel void counter(global atomic_int *count) {
  atomic_fetch_add_explicit(count, 1, memory_order_relaxed);
}
