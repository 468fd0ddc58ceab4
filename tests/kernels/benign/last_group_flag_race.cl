//xfail:NOT_ALL_VERIFIED
//--local_size=32 --global_size=128 --size flag=4
//possible write-write race on flag\[0\]
/* Every work-item of a group stores its group's id to flag[0] after a barrier: within one group the stores
   agree (a benign race), but two groups store different ids — a harmful race that the benign same-group
   finding must not hide (docs/semantics.md row 10). */
kernel void last_group(global int *flag, local int *scratch) {
  scratch[get_local_id(0)] = 1;
  barrier(CLK_LOCAL_MEM_FENCE);
  flag[0] = get_group_id(0);
}
