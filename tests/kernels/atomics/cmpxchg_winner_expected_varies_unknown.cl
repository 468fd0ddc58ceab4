//unknown
//--local_size=16 --global_size=64
/* As cmpxchg_winner_reads, but each work-item expects its own local id: work-item 0 takes the counter
   from 0 to 1, then work-item 1 can take it from 1 to 2, and so on. Several calls may succeed, and two
   winners may write the group's slot; whether they do depends on the values the calls return. */
kernel void winner(global int *out, local int *count) {
  int l = (int)get_local_id(0);
  if (l == 0)
    *count = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (atomic_cmpxchg(count, l, l + 1) == l)
    out[get_group_id(0)] = l;
}
