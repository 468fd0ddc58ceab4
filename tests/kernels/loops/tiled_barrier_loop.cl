//pass
//--local_size=16 --global_size=64
/* A tile loop like OpenCV's integral_sum: 64 iterations, each filling a local tile with 16 unrolled
   stores, then reading it back after a barrier. Unrolled it would be about 20,000 instructions, so it
   stays a loop and the shared-iteration encoding takes it: the barrier at the end of each iteration
   keeps the next iteration's stores away from this one's reads. */
kernel void tiles(global const float *in, global float *out) {
  local float tile[16 * 17];
  int l = get_local_id(0), g = get_global_id(0);
  for (int y = 0; y < 1024; y += 16) {
    for (int i = 0; i < 16; i++)
      tile[i * 17 + l] = in[(y + i) * 64 + g] * 2.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int i = 0; i < 16; i++)
      out[(y + l) * 1024 + g * 16 + i] = tile[l * 17 + i];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}
