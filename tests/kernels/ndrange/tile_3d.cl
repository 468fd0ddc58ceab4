//pass
//--local_size=4,4,4 --global_size=8,8,4
/* A 3D launch staging a 4x4x4 tile in local memory: each work-item stores its voxel, the barrier
   separates the stores from reading the mirrored voxel (3 - lz) of the same group. */
kernel void mirror_z(global const int *in, global int *out) {
  local int t[4][4][4];
  size_t lx = get_local_id(0), ly = get_local_id(1), lz = get_local_id(2);
  size_t g = (get_global_id(2) * 8 + get_global_id(1)) * 8 + get_global_id(0);
  t[lz][ly][lx] = in[g];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[g] = t[3 - lz][ly][lx];
}
