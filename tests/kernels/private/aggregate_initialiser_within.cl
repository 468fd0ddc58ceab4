//pass
//--global_size=64 --local_size=64 --size out=512 --checks=all
/* The fixed form of aggregate_initialiser_past_array_race: i < 5. */
union U { short s; int i; };
struct S { union U grid[5][7][2]; union U **links[8]; };
__kernel void k(__global ulong *out) {
  struct S a;
  struct S *p = &a;
  union U *slot;
  struct S b = {{{{{0x54}}}}, {&slot}};
  a = b;
  ulong sum = 0;
  for (int i = 0; i < 5; i++)
    sum += p->grid[i][0][0].s;
  out[get_global_id(0)] = sum;
}
