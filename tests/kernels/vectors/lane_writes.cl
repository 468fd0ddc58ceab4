//pass
//--global_size=64 --local_size=32
/* Two work-items share each int2: the even one writes .x, the odd one .y. Clang compiles `v[i].x = e`
   as a load of the whole vector, a lane insert and a store back; only the inserted lane is written. */
kernel void split(global int2 *v) {
  size_t i = get_global_id(0);
  if (i % 2 == 0)
    v[i / 2].x = (int)i;
  else
    v[i / 2].y = (int)i;
}
