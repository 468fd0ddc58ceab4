//unknown
//--local_size=8 --global_size=8
//unknown: .*pointer
typedef struct Node { global struct Node *next; int value; } Node;
kernel void chase(global Node *list, global int *out) {
  global Node *n = list[get_global_id(0)].next;
  out[get_global_id(0)] = n->value;
}
