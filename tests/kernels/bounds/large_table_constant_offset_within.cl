//pass
//--global_size=64 --local_size=64 --data idx=iota:2048 --size table=8188 --size out=256 --checks=all
/* A read of a large read-only buffer (8 KiB of captured ints, too many to read exactly) at a constant offset
   reads its captured word (docs/semantics.md row 13d): idx[2046] is 2046, inside table's 2047 ints. hashcat's
   markov kernels read a charset's length this way (root_css_buf[pw_r_len].cs_len, pw_r_len captured). */
__kernel void pick(__global const int *idx, __global const int *table, __global int *out) {
  int i = get_global_id(0);
  out[i] = table[idx[2046]] + i;
}
