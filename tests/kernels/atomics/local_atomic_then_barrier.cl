//pass
//--local_size=32 --global_size=64
kernel void count(global int *out) {
  local int counter;
  if (get_local_id(0) == 0)
    counter = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_inc(&counter);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 1)
    out[get_group_id(0)] = counter;
}
