//pass
//--local_size=64 --global_size=128 --size q1=6144 --size q2=6144
/* GPUVerify test_part_load_store/load_ptr_array_and_int: a pointer loaded from global memory and stored
   again is copied, never followed; each work-item copies its own struct. */
struct entry {
  global int *p[5];
  int i;
};
kernel void copy(global struct entry *q1, global struct entry *q2) {
  q2[get_global_id(0)].i = q1[get_global_id(0)].i;
  q2[get_global_id(0)].p[3] = q1[get_global_id(0)].p[3];
}
