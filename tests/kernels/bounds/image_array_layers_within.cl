//pass
//--local_size=8,8,1 --global_size=8,8,4 --image out=image2d_array:8x8x4
/* The fixed twin of image_array_layer_past_end_race: four layers for four groups. */
kernel void layers(write_only image2d_array_t out) {
  int4 p = (int4)(get_global_id(0), get_global_id(1), get_global_id(2), 0);
  write_imagef(out, p, (float4)(1.0f));
}
