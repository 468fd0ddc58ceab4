//xfail:NOT_ALL_VERIFIED
//--global_size=4 --local_size=4 --size in=16 --size out=16 --mem-flags in=CL_MEM_READ_ONLY --checks=all
//error: write of in\[[0-3]\] in a CL_MEM_READ_ONLY buffer
/* Oclgrind's memcheck/write_read_only_memory: `in` was created CL_MEM_READ_ONLY and the kernel increments it.
   A write to a read-only buffer is undefined (OpenCL 1.2 §5.2.1, Table 5.3; docs/semantics.md row 37f). */
kernel void write_read_only_memory(global int *in, global int *out) {
  int i = get_global_id(0);
  out[i] = in[i]++;
}
