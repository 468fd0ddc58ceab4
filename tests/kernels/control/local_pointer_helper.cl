//pass
//--local_size=16 --global_size=32
void fill(local int *t, size_t l) { t[l] = (int)l; }
int get(local int *t, size_t l) { return t[15 - l]; }
kernel void helpers(global int *out) {
  local int t[16];
  size_t l = get_local_id(0);
  fill(t, l);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = get(t, l);
}
