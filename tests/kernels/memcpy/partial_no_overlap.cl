//pass
//--global_size=64 --local_size=32 --size bytes=1024
/* partial_overlap_race fixed: a 12-byte struct at 12 × the id. */
typedef struct {
  int a, b, c;
} triple;

kernel void pack(global char *bytes, global const triple *in) {
  triple t = in[get_global_id(0)];
  *(global triple *)(bytes + 12 * get_global_id(0)) = t;
}
