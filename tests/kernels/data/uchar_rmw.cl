//pass
//--local_size=64 --global_size=256
/* Read-modify-write of single bytes: four work-items share each 32-bit word, but OpenCL memory is byte
   addressed and each work-item touches only its own byte. */
kernel void flip(global uchar *b) {
  size_t i = get_global_id(0);
  b[i] ^= (uchar)0x5A;
}
