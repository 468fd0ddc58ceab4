//pass
//--global_size=64 --local_size=64 --size out=256 --data out=iota:64 --data in=iota:1:64 --size in=256
//diff: none
/* The twin of uninitialised_local.cl: every work-item fills its element before the barrier, so every read
   finds a written value and the device and the interpreter agree. */
__kernel void mirror(__global int *out, __global const int *in) {
  __local int tile[64];
  size_t l = get_local_id(0);
  if (l < 64) {
    tile[l] = in[get_global_id(0)];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  int v = tile[63 - l];
  out[get_global_id(0)] = v;
}
