//pass
//--local_size=32 --global_size=64 --flags=-cl-std=CL2.0
/* The fixed form of work_group_scope_across_groups_race: memory_scope_device. */
kernel void count(global atomic_int *total) {
  atomic_fetch_add_explicit(total, 1, memory_order_relaxed, memory_scope_device);
}
