//pass
//--local_size=32 --global_size=64 --arg stride=0x00000001
/* Racy pair of --open=scalars: with the captured stride 1 every work-item writes its own element
   (verified), but stride 0 makes all of them write a[0]: --open=scalars reports that race, and its witness
   names the value (stride = 0). */
kernel void strided_store(global int *a, int stride) {
  size_t i = get_global_id(0);
  a[i * stride] = (int)i;
}
