//xfail:NOT_ALL_VERIFIED
//--global_size=128 --local_size=64 --size out=512 --checks=all
//error: out-of-bounds write on tile\[64\]
/* A kernel-scope local array of 64 ints written one slot to the right: the last work-item of each group
   writes tile[64]. */
__kernel void shift(__global int *out) {
  __local int tile[64];
  int l = get_local_id(0);
  tile[l + 1] = l;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tile[l];
}
