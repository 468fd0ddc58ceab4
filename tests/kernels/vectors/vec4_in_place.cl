//pass
//--local_size=16 --global_size=64
/* In-place vload4/vstore4: work-item i reads and writes the four floats 4i..4i+3 and nobody else's. */
kernel void normalise(global float *a) {
  size_t i = get_global_id(0);
  float4 v = vload4(i, a);
  vstore4(v / (v.x + v.y + v.z + v.w), i, a);
}
