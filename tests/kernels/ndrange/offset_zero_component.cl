//pass
//--local_size=4,1 --global_size=16,4 --global_offset=0,2
/* An offset with a 0 component: captures.json cannot carry it (GPUVerify's loader wants every component
   > 0), so the sidecar has it and clcapture-verify must still see rows 2 to 5. Then each work-item writes
   its own element; rows 0 and 1, which only a lost offset would give, all write a[0]. */
kernel void rows(global int *a) {
  size_t x = get_global_id(0), y = get_global_id(1);
  if (y >= 2)
    a[(y - 2) * 16 + x] = 1;
  else
    a[0] = (int)x;
}
