//pass
//--global_size=64 --local_size=64 --size out=256 --data out=iota:64 --data in=iota:1:64 --size in=256
//diff: line=14 item=0 variable=v
/* Half the group fills the tile, then every work-item reads the element opposite its own: the first 32
   read elements nobody wrote. A device returns whatever its local memory held (often zeros); the
   interpreter's local memory starts as 0xA5 bytes, so the first such read is where the two part. */
__kernel void mirror(__global int *out, __global const int *in) {
  __local int tile[64];
  size_t l = get_local_id(0);
  if (l < 32) {
    tile[l] = in[get_global_id(0)];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  int v = tile[63 - l];
  out[get_global_id(0)] = v;
}
