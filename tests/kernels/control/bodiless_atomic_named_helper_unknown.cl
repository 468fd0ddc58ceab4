//unknown
//--local_size=16 --global_size=64 --size out=4
//declares without a body
/* atomic_bump() is declared and defined nowhere (another program of a clLinkProgram could define it): it is
   not the built-in its name suggests, so nothing is assumed about what it does — it may write out[0]
   plainly from every work-item. */
int atomic_bump(volatile global int *p);
kernel void k(global int *out) {
  atomic_bump(&out[0]);
}
