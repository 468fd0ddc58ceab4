//unknown
//--local_size=32 --global_size=64
//unknown: possible race .*depending on mul24 outside its 24-bit range at
/* With w != 0 two products gid * w meet only when they wrap around 2^32, i.e. for w of 2^26 or more:
   outside mul24's 24-bit range, where its result is implementation-defined (OpenCL 1.2 §6.12.3). */
kernel void pitch(global int *out, int w) {
  if (w == 0)
    return;
  int i = (int)get_global_id(0);
  out[(uint)mul24(i, w)] = i;
}
