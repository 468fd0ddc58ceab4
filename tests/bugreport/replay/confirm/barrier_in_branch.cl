//confirmed
//--local_size=32 --global_size=64 --size tmp=128 --data out=iota:64
/* Half of each group reaches the barrier (tests/kernels/divergence/barrier_in_branch.cl): Oclgrind reports
   the work-group divergence. */
kernel void divergent(global int *out, local int *tmp) {
  size_t l = get_local_id(0);
  tmp[l] = 1;
  if (l < 16)
    barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tmp[l];
}
