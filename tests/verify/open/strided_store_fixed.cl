//pass
//--local_size=32 --global_size=64 --arg stride=0x00000001
/* Fixed pair of strided_store_race.cl: the stride moves the load, never the store, so no value of `stride`
   makes two work-items write one element: verified with the captured value and with --open=scalars. */
kernel void strided_store_fixed(global int *a, global const int *b, int stride) {
  size_t i = get_global_id(0);
  a[i] = b[(i * stride) % 64];
}
