//pass
//--local_size=8 --global_size=16 --data idx=int:3,1,4,0,5,9,2,6,8,7,15,14,13,12,11,10 --size out=64
/* The fixed form of uncaptured_index_race: the same gather with its index buffer captured (a
   permutation), so the writes are distinct. */
kernel void gather(global const int *idx, global int *out) {
  size_t i = get_global_id(0);
  out[idx[i]] = (int)i;
}
