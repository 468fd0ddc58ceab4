//pass
//--local_size=64 --global_size=256
kernel void chars(global const char *in, global char *out) {
  size_t i = get_global_id(0);
  out[i] = in[i] + in[(i + 1) % 256];
}
