//pass
//--local_size=32 --global_size=128 --alias out=in
/* `in` and `out` are the same buffer, but each work-item reads and then writes only its own element:
   aliasing alone is not a race when the index sets of different work-items are disjoint. */
kernel void scale(global const float *in, global float *out) {
  size_t i = get_global_id(0);
  out[i] = 2.0f * in[i];
}
