//pass
//--local_size=32 --global_size=128 --size flag=4
//warning: possible benign write-write race on flag\[0\]
/* The fixed form of last_group_flag_race: every work-item of every group stores 1, so the race within a
   group and the one between groups are both benign. */
kernel void last_group(global int *flag, local int *scratch) {
  scratch[get_local_id(0)] = 1;
  barrier(CLK_LOCAL_MEM_FENCE);
  flag[0] = 1;
}
