//pass
//--local_size=32 --global_size=64
/* The fixed form of constant_aliases_written_global_race: two buffers. */
kernel void shift(constant int *table, global int *out) {
  size_t i = get_global_id(0);
  out[i] = table[(i + 63) % 64] + 1;
}
