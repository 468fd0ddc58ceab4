//xfail:NOT_ALL_VERIFIED
//--local_size=64 --global_size=256 --size c=1024
//possible write-write race on c\[0\]
/* GPUVerify misc/fail/miscfail9: every work-item's sincos stores its cosine to c[0]. */
kernel void trig(global float *c) {
  sincos((float)get_global_id(0), c);
}
