//pass
//--local_size=32 --global_size=64 --arg p=0x0000000100000000
typedef struct { int offset; int stride; } Params;
kernel void with_struct(global int *a, Params p) {
  size_t i = get_global_id(0);
  a[p.offset + i * p.stride] = 1;
}
