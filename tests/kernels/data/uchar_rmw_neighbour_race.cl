//xfail:NOT_ALL_VERIFIED
//--local_size=64 --global_size=256
//race on b\[
/* Each byte is combined with its pair neighbour (i ^ 1) in place: work-item i reads b[i ^ 1] while
   work-item i ^ 1 writes it. */
kernel void flip(global uchar *b) {
  size_t i = get_global_id(0);
  b[i] += b[i ^ 1];
}
