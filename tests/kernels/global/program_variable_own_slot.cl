//pass
//--global_size=64 --local_size=64 --size out=256 --checks=all --flags=-cl-std=CL2.0
/* The fixed form of program_variable_race: each work-item writes its own element of a program-scope array. */
global int slots[64];
__kernel void k(__global int *out) {
  int i = get_global_id(0);
  slots[i] = i;
  out[i] = slots[i];
}
