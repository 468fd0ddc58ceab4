//xfail:NOT_ALL_VERIFIED
//--local_size=64 --global_size=128 --size q1=6144 --size q2=6144
//possible write-write race on q2
/* The racy form of copy_pointer_fields: neighbours copy into one struct's int (different values read from
   q1 — open, so any two values are a real launch). */
struct entry {
  global int *p[5];
  int i;
};
kernel void copy(global struct entry *q1, global struct entry *q2) {
  q2[get_global_id(0) / 2].i = q1[get_global_id(0)].i;
  q2[get_global_id(0)].p[3] = q1[get_global_id(0)].p[3];
}
