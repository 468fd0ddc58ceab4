//pass
//--global_size=16 --local_size=16 --size out=64 --data out=iota:16 --data in=iota:16 --size in=64
//diff: line=17 item=5 variable=w
//debug: --device-build-options=-DDEVICE_MISCOMPILE
/* A miscompile, simulated: built with -DDEVICE_MISCOMPILE on the device only, SCALE gives a wrong value in
   work-item 5 alone, as a compiler bug in one path would. The interpreter builds with the captured options. */
#ifdef DEVICE_MISCOMPILE
#define SCALE(v, i) ((v) + ((i) == 5))
#else
#define SCALE(v, i) (v)
#endif

__kernel void scale(__global int *out, __global const int *in) {
  int i = (int)get_global_id(0);
  int v = in[i] * 3;
  int u = v - 1;
  int w = SCALE(v, i);
  out[i] = w + u;
}
