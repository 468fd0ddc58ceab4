//pass
//--local_size=32 --global_size=64 --arg d=0x00000001
/* The other side of captured_zero_divisor_unknown.cl: with a divisor the launch defines, the division is
   folded and analysed as usual (i / 1 == i: one slot per work-item). */
kernel void bucket(global int *out, uint d) {
  uint i = get_global_id(0);
  out[i / d] = (int)i;
}
