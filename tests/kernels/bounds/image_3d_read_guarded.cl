//pass
//--local_size=4,4,4 --global_size=8,8,8 --image vol=image3d:8x8x8 --size out=8192
/* The fixed twin of image_3d_read_past_depth_race: the last slice takes no upper neighbour. */
kernel void dz(read_only image3d_t vol, global float4 *out) {
  int4 p = (int4)(get_global_id(0), get_global_id(1), get_global_id(2), 0);
  float4 up = p.z + 1 < 8 ? read_imagef(vol, p + (int4)(0, 0, 1, 0)) : (float4)(0.0f);
  out[(p.z * 8 + p.y) * 8 + p.x] = up - read_imagef(vol, p);
}
