//pass
//--local_size=32 --global_size=64 --size total=8 --flags=-cl-std=CL2.0
/* The fixed form of scopes_on_one_line_race: both atomics of device scope. */
#define BUMP(p, s) atomic_fetch_add_explicit((p), 1, memory_order_relaxed, (s))
kernel void count(global atomic_int *total) {
  BUMP(&total[0], memory_scope_device); BUMP(&total[1], memory_scope_device);
}
