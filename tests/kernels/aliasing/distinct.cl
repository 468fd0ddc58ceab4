//pass
//--local_size=32 --global_size=64
kernel void add_one(global int *dst, global const int *src) {
  size_t i = get_global_id(0);
  dst[i] = src[i] + 1;
}
