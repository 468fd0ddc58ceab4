//pass
//--local_size=16 --global_size=64
kernel void lookup(constant int *table, global int *out) {
  size_t i = get_global_id(0);
  out[i] = table[i % 16];
}
