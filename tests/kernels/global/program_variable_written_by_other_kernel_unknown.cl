//unknown
//--global_size=64 --local_size=64 --size out=1024 --checks=all --flags=-cl-std=CL2.0
//unknown: .*the contents of the program-scope variable table, which other launches may have written
/* program_variable_unwritten_table, but another kernel of the program writes `table`, and a launch of it
   may have run before this one: the initialiser is not what this launch reads, so its indices are open. */
global int table[4] = {1, 2, 3, 0};
__kernel void k(__global int *out) {
  int i = get_global_id(0);
  out[table[i % 4] * 64 + i] = i;
}
__kernel void reset(void) { table[3] = 1; }
