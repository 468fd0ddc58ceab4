//pass
//--local_size=32 --global_size=128
/* Four work-items share each int4 but each writes only its own lane (i % 4): distinct addresses. */
kernel void lanes(global int4 *v) {
  size_t i = get_global_id(0);
  global int *p = (global int *)&v[i / 4];
  p[i % 4] = (int)i;
}
