//unknown
//--local_size=8,8 --global_size=16,16
//unknown: .*write_image
/* Writes to an image: image memory is opaque to the encoder, so the verdict is unknown (never verified). */
kernel void fill(write_only image2d_t out, global const float4 *in) {
  int2 p = (int2)(get_global_id(0), get_global_id(1));
  write_imagef(out, p, in[p.y * 16 + p.x]);
}
