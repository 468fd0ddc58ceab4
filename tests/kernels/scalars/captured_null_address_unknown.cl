//unknown
//--global_size=64 --local_size=16 --size out=256 --arg where=0x0000000000000000
//unknown: .*undefined: a write through a null pointer at .*captured_null_address_unknown.cl:9
/* A private pointer made from a captured address that is 0: once the value is folded in, LLVM deletes the
   store through NULL and everything after it as unreachable (address space 0 has no object at NULL), so
   the launch is not analysed. Without the guard, the race on out[0] below disappeared: `verified`. */
__kernel void poke(__global int *out, ulong where) {
  int *p = (int *)where;
  *p = 1;
  out[0] = get_global_id(0);
}
