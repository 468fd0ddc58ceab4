//xfail:NOT_ALL_VERIFIED
//--global_size=256 --local_size=128 --size out=1024 --size tmp=256 --checks=all
//error: out-of-bounds write on tmp
/* The host sized the local argument for 64 ints (clSetKernelArg(k, 1, 256, NULL)), but the work-group has
   128 work-items, each writing its own slot. */
__kernel void stage(__global int *out, __local int *tmp) {
  int l = get_local_id(0);
  tmp[l] = l;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tmp[get_local_size(0) - 1 - l];
}
