//pass
//--local_size=8,8 --global_size=16,16
/* A tiled transpose into an image through local memory: (x, y) written at (y, x), one pixel each. */
kernel void transpose(write_only image2d_t out, read_only image2d_t in, local float4 *tile) {
  int2 l = (int2)(get_local_id(0), get_local_id(1));
  int2 g = (int2)(get_group_id(0), get_group_id(1)) * 8;
  tile[l.y * 8 + l.x] = read_imagef(in, g + l);
  barrier(CLK_LOCAL_MEM_FENCE);
  write_imagef(out, (int2)(g.y, g.x) + l, tile[l.x * 8 + l.y]);
}
