//xfail:NOT_ALL_VERIFIED
//--local_size=32 --global_size=80 --flags=-cl-std=CL2.0
//possible write-write race on out\[0\]
/* The same launch: only the last group has 16 work-items (get_local_size is its real size, not the
   enqueued 32), and all of them write out[0]. */
kernel void last(global int *out) {
  if (get_local_size(0) == 16)
    out[0] = (int)get_local_id(0);
}
