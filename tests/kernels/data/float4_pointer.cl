//pass
//--local_size=16 --global_size=64
kernel void f4(global float4 *v) {
  size_t i = get_global_id(0);
  v[i] = v[i] * 2.0f;
}
