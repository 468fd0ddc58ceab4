//xfail:NOT_ALL_VERIFIED
//--local_size=64 --global_size=128 --size q=2048 --size p=4
//error: possible write-write race on q
//warning: possible benign write-write race on q
/* The racy form of store_pointer_fields: two work-items share one struct's int and store different values
   (a race), and two share one struct's pointer and store the same pointer (benign: a pointer's bits are its
   object's address plus its offset, the same for both). */
struct entry {
  global int *p;
  int i;
};
kernel void fill(global int *p, global struct entry *q) {
  q[get_global_id(0) / 2].i = (int)get_global_id(0);
  q[get_global_id(0) / 2 + 64].p = p;
}
