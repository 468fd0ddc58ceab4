//pass
//--local_size=64 --global_size=256 --size flag=2048
/* Every work-item reads flag[0] (global memory the kernel writes elsewhere, so its value is open) and
   reaches the barrier or not by it: two work-items of one group read one place in one barrier interval,
   one value unless a race comes first (docs/semantics.md row 26). */
kernel void gate(global int *flag) {
  int f = flag[0];
  if (f == 0)
    barrier(CLK_GLOBAL_MEM_FENCE);
  flag[1 + get_global_id(0)] = f;
}
