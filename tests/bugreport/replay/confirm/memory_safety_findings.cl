//confirmed
//--local_size=4 --global_size=4 --size in=16 --size out=16 --data in=iota:4 --data out=int:0,0,0,0 --mem-flags in=CL_MEM_READ_ONLY --checks=all
/* Two memory-safety findings (docs/memory-safety.md) that Oclgrind's MemCheck sees with the captured input:
   a write to the CL_MEM_READ_ONLY `in` (access-mode) and work-item 3's write one element past `out`
   (out-of-bounds). */
kernel void flags_and_bounds(global int *in, global int *out) {
  int i = get_global_id(0);
  out[i] = in[i]++;
  if (i == 3)
    out[4] = 0;
}
