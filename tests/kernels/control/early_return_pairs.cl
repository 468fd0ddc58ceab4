//pass
//--local_size=32 --global_size=128
/* Odd work-items return at once; each even work-item i writes elements i and i + 1, so the pairs of
   the remaining work-items tile the buffer without overlap. */
kernel void pairs(global int *a) {
  size_t i = get_global_id(0);
  if (i % 2 == 1)
    return;
  a[i] = 1;
  a[i + 1] = 2;
}
