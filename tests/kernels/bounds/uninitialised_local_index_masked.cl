//pass
//--global_size=64 --local_size=8 --size out=256 --checks=all --oclgrind-blind="the bytes an uninitialised local array holds (Oclgrind's are its own choice)"
/* The fixed form of uninitialised_local_index_past_end_race: whatever bytes G holds, the masked index stays
   inside L (the work-items of a group may meet in L, all writing the global size: a benign race). */
__kernel void foo(__global int *out) {
  local int L[64];
  local int G[64];
  L[G[get_local_id(0)] & 63] = get_global_size(0);
  out[get_global_id(0)] = get_global_id(0);
}
