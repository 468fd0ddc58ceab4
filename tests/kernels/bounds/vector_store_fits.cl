//pass
//--global_size=16 --local_size=16 --size out=256 --checks=all
/* The fixed form of vector_store_straddles_end_race: room for every lane. */
__kernel void fill(__global float *out) {
  int i = get_global_id(0);
  vstore4((float4)(i), i, out);
}
