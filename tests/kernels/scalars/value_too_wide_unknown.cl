//unknown
//--local_size=32 --global_size=64 --arg stride=0x100000000
//unknown: .*the argument stride, whose captured value does not fit its type
/* A captured value wider than its int parameter: the capture is wrong about something, so the value stays
   an abstraction (never a witness), unlike a value the capture does not give. */
kernel void strided(global int *a, int stride) {
  size_t i = get_global_id(0);
  a[i * stride] = (int)i;
}
