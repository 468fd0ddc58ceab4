//pass
//--global_size=4 --local_size=4 --size out=16 --checks=all
/* The fixed form of chosen_array_member_race: &s.b[i] only for i < 2. Taking the other operand's flag for
   the chosen pointer made this a false alarm. */
struct S {
  int a;
  int b[2];
  int c[4];
};
__kernel void pick(__global int *out) {
  volatile struct S s = {0, {1, 2}, {3, 4, 5, 6}};
  int i = get_global_id(0);
  volatile int *p = (i >= 2) ? &s.c[0] : &s.b[i];
  *p = i;
  out[i] = s.a;
}
