//unknown
//--global_size=64 --local_size=64 --size out=1024 --checks=all --flags=-cl-std=CL2.0
//unknown: .*the contents of the program-scope variable table, which other launches may have written
/* The address of `table` is another variable's initialiser, and a kernel writes through that copy: `table`
   may have changed although no store names it. */
global int table[4] = {1, 2, 3, 0};
global int *alias = &table[3];
__kernel void k(__global int *out) {
  int i = get_global_id(0);
  out[table[i % 4] * 64 + i] = i;
}
__kernel void reset(void) { *alias = 1; }
