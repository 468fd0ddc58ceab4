//unknown
//--local_size=16 --global_size=64 --size out=256
//declares without a body
/* shuffle_index() is declared and defined nowhere: without its body, its result (here an index) is not
   some pure built-in's; a kernel calling it is not verified. */
int shuffle_index(int i);
kernel void k(global int *out) {
  out[shuffle_index((int)get_global_id(0))] = 1;
}
