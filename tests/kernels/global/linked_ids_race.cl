//xfail:NOT_ALL_VERIFIED
//--local_size=16 --global_size=16 --size out=2048
//possible (read-write|write-read) race on out\[20\]
/* The racy twin of linked_ids: work-item 0 reads out[20], which work-item 1 writes, with no barrier between. */
kernel void linked(global int *out) {
  size_t l = get_local_id(0);
  int v = out[l + 20];
  out[20 * l] = v;
}
