//xfail:NOT_ALL_VERIFIED
//--local_size=32 --global_size=64 --flags=-cl-std=CL2.0
//possible atomic-write race on total
/* OpenCL 2.0 §3.3.4: an atomic of memory_scope_work_group is atomic only among the work-items of one
   group — two groups' increments of one global counter race. */
kernel void count(global atomic_int *total) {
  atomic_fetch_add_explicit(total, 1, memory_order_relaxed, memory_scope_work_group);
}
