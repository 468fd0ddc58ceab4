//xfail:NOT_ALL_VERIFIED
//--local_size=16 --global_size=64 --size out=2048
//possible write-write race on out\[[0-9]+\]
/* The racy twin of stride_near_miss: at a stride of 10, work-item 10 of group g and work-item 0 of group g + 1
   write one element (100·1 = 10·10). The dependence test's search over the integers must find that pair. */
kernel void rows(global int *out) {
  out[get_group_id(0) * 100 + get_local_id(0) * 10] = (int)get_global_id(0);
}
