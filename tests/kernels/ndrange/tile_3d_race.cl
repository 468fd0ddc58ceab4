//xfail:NOT_ALL_VERIFIED
//--local_size=4,4,4 --global_size=8,8,4
//race on t\[
/* tile_3d.cl without the barrier: work-item (x, y, z) reads the voxel that (x, y, 3 - z) is storing. */
kernel void mirror_z(global const int *in, global int *out) {
  local int t[4][4][4];
  size_t lx = get_local_id(0), ly = get_local_id(1), lz = get_local_id(2);
  size_t g = (get_global_id(2) * 8 + get_global_id(1)) * 8 + get_global_id(0);
  t[lz][ly][lx] = in[g];
  out[g] = t[3 - lz][ly][lx];
}
