//pass
//--global_size=256 --local_size=128 --size out=1024 --size tmp=512 --checks=all
/* The fixed form of local_argument_past_end_race: 128 ints of local memory for 128 work-items. */
__kernel void stage(__global int *out, __local int *tmp) {
  int l = get_local_id(0);
  tmp[l] = l;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tmp[get_local_size(0) - 1 - l];
}
