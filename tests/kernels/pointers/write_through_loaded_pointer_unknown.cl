//unknown
//--local_size=8 --global_size=8 --size list=128 --size out=32
//unknown: .*a pointer loaded from memory
/* Every work-item writes through a pointer it read from global memory: which object it points into is not
   known (pointer chasing), so a race through it has no exact witness — and the verdict is never
   `verified`, since the pointers may all be one. */
typedef struct Node { global int *target; int value; } Node;
kernel void chase(global Node *list, global int *out) {
  global int *t = list[get_global_id(0)].target;
  t[0] = (int)get_global_id(0);
  out[get_global_id(0)] = 1;
}
