//pass
//--global_size=64 --local_size=64 --size out=256 --checks=all
/* The fixed form of null_offset_write_race: the write through NULL plus 5 lies on a path no work-item of the
   launch takes (a global id is below the global size), so it is no finding. */
__kernel void pick(__global int *out) {
  int i = get_global_id(0);
  char *bytes = 0;
  if (i >= get_global_size(0))
    bytes[5] = 'a';
  out[i] = i;
}
