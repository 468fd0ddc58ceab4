//unknown
//--local_size=8 --global_size=16
//unknown: .*read from global memory
kernel void gather(global const int *idx, global int *out) {
  size_t i = get_global_id(0);
  out[idx[i]] = (int)i;
}
