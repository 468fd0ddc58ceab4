//xfail:NOT_ALL_VERIFIED
//--local_size=64 --global_size=256 --size out=4096
//write-write race on out\[7\]
/* As private/vector_array_by_value, reading lane 0 (7 in every slot): every work-item writes its own id to
   out[7], a race shown because the vector read back is the one stored (an open value made it `unknown`;
   read with its lanes reversed, private/vector_array_by_value's lane 1 would be 7 and race). */
kernel void pick(global int *out) {
  int4 slot[2];
  int g = (int)get_global_id(0);
  slot[0] = (int4)(7, g, 7, 7);
  slot[1] = (int4)(7, g + 256, 7, 7);
  int4 s = slot[get_local_id(0) & 1];
  out[s.x] = g;
}
