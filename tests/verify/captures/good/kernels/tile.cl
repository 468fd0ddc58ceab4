__kernel void tile(__local int *tmp, __global int *out) {
  size_t l = get_local_id(0) + get_local_size(0) * get_local_id(1);
  tmp[l] = (int)l;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0) + get_global_size(0) * get_global_id(1)] = tmp[15 - l];
}
