//xfail:NOT_ALL_VERIFIED
//--local_size=4,4,4 --global_size=8,8,8
//write-write race on v\[
kernel void volume(global int *v) {
  size_t x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
  v[(z * 8 + y) * 4 + x] = (int)(x + y + z);
}
