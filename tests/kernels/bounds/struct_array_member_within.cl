//pass
//--global_size=4 --local_size=4 --size output=4 --checks=all
/* The fixed form of struct_array_member_past_end_race: the array has a slot per work-item. */
struct S {
  int a;
  char b[4];
};
__kernel void static_array(__global char *output) {
  volatile struct S s = {-1, {42, 7, 0, 0}};
  int i = get_global_id(0);
  s.b[i] = i;
  output[i] = s.b[i];
}
