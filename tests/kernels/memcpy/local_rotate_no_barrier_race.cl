//xfail:NOT_ALL_VERIFIED
//--global_size=64 --local_size=32 --size in=1280 --size out=1280
//possible (write-read|read-write) race on tmp\[
//local_rotate_no_barrier_race.cl:16:12: tmp\[l\] = in\[get_global_id\(0\)\];
//local_rotate_no_barrier_race.cl:17:27: out\[get_global_id\(0\)\] = tmp\[\(l \+ 1\) % 32\];
/* local_rotate without its barrier: a work-item copies its neighbour's local struct while the
   neighbour may still be writing it. */
typedef struct {
  int key;
  int digits[4];
} item;

kernel void rotate(global const item *in, global item *out) {
  local item tmp[32];
  size_t l = get_local_id(0);
  tmp[l] = in[get_global_id(0)];
  out[get_global_id(0)] = tmp[(l + 1) % 32];
}
