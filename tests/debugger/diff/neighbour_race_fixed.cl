//pass
//--global_size=64 --local_size=64 --size out=256 --data out=iota:64 --data in=iota:1:64 --size in=256
//diff: none
//debug: --repeat 2
/* The twin of neighbour_race.cl: a barrier separates every read from every update, so any schedule (and the
   device) gives the same values. */
__kernel void smooth(__global int *out, __global const int *in) {
  __local int tile[64];
  size_t l = get_local_id(0);
  tile[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  int right = tile[(l + 1) % 64];
  barrier(CLK_LOCAL_MEM_FENCE);
  tile[l] = tile[l] + right;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tile[l];
}
