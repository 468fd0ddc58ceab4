//pass
//--global_size=4 --local_size=4 --size in=16 --size out=16 --alias out=in --mem-flags in=CL_MEM_READ_ONLY --checks=all
/* `in` (CL_MEM_READ_ONLY) and `out` (read-write) are one memory object, as a sub-buffer and its parent may
   be: a write through the object reaches it by a handle the flags allow or not, so an object is read-only
   only when every argument on it is (docs/semantics.md row 37f); here no access-mode finding. */
kernel void shift(global int *in, global int *out) {
  int i = get_global_id(0);
  int v = in[i];
  barrier(CLK_GLOBAL_MEM_FENCE);
  out[i] = v + 1;
}
