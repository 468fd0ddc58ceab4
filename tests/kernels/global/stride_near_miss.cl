//pass
//--local_size=16 --global_size=64 --size out=2048
/* Rows of 16 at a stride of 7 start 100 apart: a row spans 106 elements, so interval bounds let neighbouring
   groups meet, but 100·k = 7·(l₂ − l₁) has no solution with |l₂ − l₁| ≤ 15. The dependence test (docs/semantics.md
   row 36) decides the difference over the integers and settles every pair without the solver. */
kernel void rows(global int *out) {
  out[get_group_id(0) * 100 + get_local_id(0) * 7] = (int)get_global_id(0);
}
