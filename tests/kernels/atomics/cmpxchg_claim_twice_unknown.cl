//unknown
//--local_size=32 --global_size=128
/* As cmpxchg_claim_once, but the flag is also cleared by atomic_xchg elsewhere in the kernel: a second
   call can succeed after it, and two winners may write `winner`. */
kernel void claim(global int *flag, global int *winner) {
  if (atomic_cmpxchg(flag, 0, 1) == 0)
    *winner = (int)get_global_id(0);
  if (get_global_id(0) == 3)
    atomic_xchg(flag, 0);
}
