// Hand-written sample capture: a 2-D kernel with every kind of argument.
typedef struct { int a; int b; } pair_t;

kernel void scale(global float *out, global const float *in, local float *tmp, pair_t p, float factor,
                  read_only image2d_t img, sampler_t smp) {
  size_t i = get_global_id(1) * get_global_size(0) + get_global_id(0);
  tmp[get_local_id(0)] = in[i] * factor + (float)(p.a + p.b);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[i] = tmp[get_local_id(0)];
}
