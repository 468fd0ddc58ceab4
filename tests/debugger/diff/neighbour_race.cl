//xfail:NOT_ALL_VERIFIED
//--global_size=64 --local_size=64 --size out=256 --data out=iota:64 --data in=iota:1:64 --size in=256
//diff: line=14 item=0 variable=right
//debug: --repeat 2
/* Each work-item reads its right neighbour's element and then updates its own, with no barrier between the
   read and the neighbour's update: a race. Which value a work-item reads depends on whether its neighbour
   has run yet, so two schedules of the same launch (Oclgrind's order and the reverse, --repeat) part at the
   read. */
__kernel void smooth(__global int *out, __global const int *in) {
  __local int tile[64];
  size_t l = get_local_id(0);
  tile[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  int right = tile[(l + 1) % 64];
  tile[l] = tile[l] + right;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tile[l];
}
