//pass
//--local_size=64 --global_size=256 --size out=4096
/* A private array of int4 indexed by a computed value stays in memory; an element read back whole is the
   vector stored there last (docs/semantics.md row 16a): lane 1 of slot[0] is gid, of slot[1] gid + 256.
   OpenCV's row filter keeps its four-pixel addresses this way. */
kernel void pick(global int *out) {
  int4 slot[2];
  int g = (int)get_global_id(0);
  slot[0] = (int4)(7, g, 7, 7);
  slot[1] = (int4)(7, g + 256, 7, 7);
  int4 s = slot[get_local_id(0) & 1];
  out[s.y] = g;
}
