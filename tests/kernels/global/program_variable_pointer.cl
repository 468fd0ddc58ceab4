//pass
//--global_size=64 --local_size=64 --size out=256 --checks=all --flags=-cl-std=CL2.0
/* Oclgrind's misc/global_variables in small: a program-scope pointer that nothing writes holds its
   initialiser, &g_arr[1], so the read through it is in bounds. */
global int g_arr[] = {7, 42};
constant int c_arr[] = {-3, 56};
global int *p_g_int = &g_arr[1];
constant int *p_c_int = &c_arr[1];
__kernel void k(__global int *out) {
  int i = get_global_id(0);
  out[i] = *p_g_int + *p_c_int + g_arr[0] + c_arr[0];
}
