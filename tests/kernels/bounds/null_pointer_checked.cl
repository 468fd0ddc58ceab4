//pass
//--global_size=64 --local_size=64 --size out=256 --checks=all
/* The fixed form of null_pointer_write_race: written only when it points somewhere. */
__kernel void pick(__global int *out) {
  int i = get_global_id(0);
  __global int *target = (i % 4 == 0) ? out : 0;
  if (target)
    target[i / 4] = i;
}
