//xfail:NOT_ALL_VERIFIED
//--local_size=8 --global_size=16 --data idx=int:3,1,2,0,7,5,6,4,11,9,10,8,15,13,14,3
//write-write race on out\[3\]
kernel void gather(global const int *idx, global int *out) {
  size_t i = get_global_id(0);
  out[idx[i]] = (int)i;
}
