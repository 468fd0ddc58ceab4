//xfail:NOT_ALL_VERIFIED
//--global_size=4 --local_size=4 --size in=16 --size out=16 --mem-flags in=CL_MEM_READ_ONLY --mem-flags out=CL_MEM_WRITE_ONLY --checks=all
//error: read of out\[[0-3]\] in a CL_MEM_WRITE_ONLY buffer
/* Oclgrind's memcheck/read_write_only_memory: `out += in` reads `out`, which the host created
   CL_MEM_WRITE_ONLY: undefined (OpenCL 1.2 §5.2.1, Table 5.3). */
kernel void read_write_only_memory(global int *in, global int *out) {
  int i = get_global_id(0);
  out[i] += in[i];
}
