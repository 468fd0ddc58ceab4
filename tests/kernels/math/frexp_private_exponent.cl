//pass
//--local_size=64 --global_size=256 --size m=1024 --size e=1024
/* frexp stores the exponent through a pointer to a private variable: a write to private memory (never a
   race); the value read back from it is open. */
kernel void split(global float *m, global int *e) {
  size_t i = get_global_id(0);
  int exponent;
  m[i] = frexp((float)i, &exponent);
  e[i] = exponent;
}
