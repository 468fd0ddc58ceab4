//pass
//--local_size=64 --global_size=128 --size q=2048 --size p=4
/* GPUVerify test_part_load_store/store_ptr_and_int: a pointer stored to global memory is a value like any
   other; each work-item writes its own struct. */
struct entry {
  global int *p;
  int i;
};
kernel void fill(global int *p, global struct entry *q) {
  q[get_global_id(0)].i = 42;
  q[get_global_id(0)].p = p;
}
