//pass
//--local_size=64 --global_size=256 --size s=1024 --size c=1024
/* sincos (OpenCL 1.2 §6.12.2) returns the sine and stores the cosine through its pointer argument: each
   work-item stores to its own element. */
kernel void trig(global float *s, global float *c) {
  size_t i = get_global_id(0);
  s[i] = sincos((float)i, &c[i]);
}
