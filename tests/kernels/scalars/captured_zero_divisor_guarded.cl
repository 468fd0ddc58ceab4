//pass
//--local_size=32 --global_size=64 --arg d=0x00000000
/* The division is guarded: with d = 0 it is never executed, so the launch is defined and analysed (each
   work-item writes out[i]). The other side of captured_zero_divisor_unknown.cl, where it is executed. */
kernel void bucket(global int *out, uint d) {
  uint i = get_global_id(0);
  if (d != 0)
    out[i / d] = (int)i;
  else
    out[i] = 0;
}
