//xfail:NOT_ALL_VERIFIED
//--global_size=32,32 --local_size=8,8
//write-write race on out\[
/* A row pitch of 16 lanes instead of 32: rows overlap. */
kernel void shift(global int *out) {
  int2 p = (int2)(get_global_id(0), get_global_id(1));
  int2 q = p * (int2)(1, 16) + (int2)(0, 0);
  out[q.x + q.y] = p.x ^ p.y;
}
