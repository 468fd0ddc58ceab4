//unknown
//--local_size=8 --global_size=8 --data idx=int:0,1,2,3 --checks=races,divergence
//unknown: possible race .*depending on a read outside the captured bytes of idx at
/* Work-items 4..7 read idx out of its 4 captured ints (undefined): the bytes there are open, so the race
   they could make is not a witness; the in-bounds reads are distinct.
   Races only: under the default checks the read of idx[4..7] is itself an out-of-bounds finding. */
kernel void gather(global const int *idx, global int *out) {
  size_t i = get_global_id(0);
  out[idx[i]] = (int)i;
}
