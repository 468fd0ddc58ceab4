//xfail:NOT_ALL_VERIFIED
//--local_size=16 --global_size=64
//race on v\[
kernel void f4(global float4 *v) {
  size_t i = get_global_id(0);
  v[i] = v[(i + 1) % 64] * 2.0f;
}
