//pass
//--local_size=16 --global_size=64 --arg d=0x00000000
/* As negative_offset_race with d = 0: each work-item reads back its own element. */
kernel void shift(global int *out, global int *got, int d) {
  int i = (int)get_global_id(0);
  out[i] = i;
  if (i > 0)
    got[i] = out[i + d];
}
