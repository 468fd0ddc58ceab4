//pass
//--local_size=32 --global_size=64
/* The same with stride 0 ruled out: race-free for every value of the uncaptured `stride`, so `verified`
   holds for all of them. */
kernel void strided(global int *a, int stride) {
  if (stride == 0)
    return;
  size_t i = get_global_id(0);
  a[i * stride] = (int)i;
}
