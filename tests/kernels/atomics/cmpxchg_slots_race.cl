//xfail:NOT_ALL_VERIFIED
//--local_size=32 --global_size=128 --data slots=int:0,0,0,0,0,0,0,0
//race on slots\[
/* The host clears the slots (captured zeros), so each slot's first atomic_cmpxchg stores. Each
   work-item also peeks at the next slot with a plain load, which races with that store. */
kernel void claim(global int *slots, global int *won) {
  size_t i = get_global_id(0);
  int old = atomic_cmpxchg(&slots[i % 8], 0, (int)i + 1);
  won[i] = (old == 0) + slots[(i + 1) % 8];
}
