//pass
//--local_size=64 --global_size=256
kernel void bytes(global uchar *b) {
  size_t i = get_global_id(0);
  b[i] = (uchar)i;
}
