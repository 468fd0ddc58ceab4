//pass
//--local_size=32 --global_size=128 --data slots=int:0,0,0,0,0,0,0,0
/* Many work-items try to claim one of 8 slots with atomic_cmpxchg; every access to `slots` is atomic,
   so contention is not a data race. */
kernel void claim(global int *slots, global int *won) {
  size_t i = get_global_id(0);
  int old = atomic_cmpxchg(&slots[i % 8], 0, (int)i + 1);
  won[i] = old == 0;
}
