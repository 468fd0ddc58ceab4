//pass
//--local_size=16 --global_size=64 --data perm=iota:64
kernel void permute(global const int *perm, global float *out, global const float *in) {
  size_t i = get_global_id(0);
  out[perm[i]] = in[i];
}
