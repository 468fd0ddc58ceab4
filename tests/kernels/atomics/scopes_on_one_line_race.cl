//xfail:NOT_ALL_VERIFIED
//--local_size=32 --global_size=64 --size total=8 --flags=-cl-std=CL2.0
//possible atomic-write race on total
/* Two atomics on one source line (a macro): the first of device scope, the second of work-group scope.
   Sites on one line are asked together; the work-group-scoped one is atomic only within a group, so two
   groups' increments of total[1] race (OpenCL 2.0 §3.3.4) although the device-scoped one never does. */
#define BUMP(p, s) atomic_fetch_add_explicit((p), 1, memory_order_relaxed, (s))
kernel void count(global atomic_int *total) {
  BUMP(&total[0], memory_scope_device); BUMP(&total[1], memory_scope_work_group);
}
