//pass
//--local_size=32 --global_size=64
/* The fixed form of null_compare_race: a NULL check around a per-work-item write. */
kernel void f(global int *A) {
  int gid = get_global_id(0);
  if (A != 0)
    A[gid] = gid;
}
