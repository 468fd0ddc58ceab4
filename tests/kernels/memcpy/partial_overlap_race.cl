//xfail:NOT_ALL_VERIFIED
//--global_size=64 --local_size=32 --size bytes=1024
//possible write-write race on bytes\[
//partial_overlap_race.cl:13:54: \*\(global triple \*\)\(bytes \+ 8 \* get_global_id\(0\)\) = t;
/* Each work-item stores a 12-byte struct at 8 × its id: the last 4 bytes overlap its neighbour's first
   4 (different values), a race by bytes, not by element. */
typedef struct {
  int a, b, c;
} triple;

kernel void pack(global char *bytes, global const triple *in) {
  triple t = in[get_global_id(0)];
  *(global triple *)(bytes + 8 * get_global_id(0)) = t;
}
