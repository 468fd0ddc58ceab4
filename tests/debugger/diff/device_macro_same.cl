//pass
//--global_size=16 --local_size=16 --size out=64 --data out=iota:16 --data in=iota:16 --size in=64
//diff: none
//debug: --device-build-options=-DDEVICE_NOT_USED
/* The twin of device_macro_miscompile.cl: the device-only macro changes nothing here, so the two agree. */
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
