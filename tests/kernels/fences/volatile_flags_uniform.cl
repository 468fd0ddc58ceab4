//pass
//--local_size=64 --global_size=128 --size p=4
/* The fixed form of volatile_flags_divergent: every work-item stores CLK_LOCAL_MEM_FENCE to its volatile
   variable, so the barrier it reads back orders the read of p[0] before the write. */
kernel void flags(local int *p, global int *out) {
  volatile int x;
  x = CLK_LOCAL_MEM_FENCE;
  int y = p[0];
  barrier(x);
  if (get_local_id(0) == 1)
    p[0] = 0;
  out[get_global_id(0)] = y;
}
