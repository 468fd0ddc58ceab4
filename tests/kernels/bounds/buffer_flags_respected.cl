//pass
//--global_size=4 --local_size=4 --size in=16 --size out=16 --arg n=0x00000002 --mem-flags in=CL_MEM_READ_ONLY --mem-flags out=CL_MEM_WRITE_ONLY --checks=all
/* The fixed twin of read_only_buffer_written_race and write_only_buffer_read_race: `in` only read, `out` only
   written; the write to `in` is guarded by n > 4, which the captured n = 2 never meets. */
kernel void copy(global int *in, global int *out, int n) {
  int i = get_global_id(0);
  out[i] = in[i] + 1;
  if (n > 4)
    in[i] = 0;
}
