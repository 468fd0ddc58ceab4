//xfail:NOT_ALL_VERIFIED
//--local_size=64 --global_size=256 --alias to=from
//race on (from|to)\[
kernel void step(global const float *from, global float *to) {
  size_t i = get_global_id(0);
  size_t l = i == 0 ? 0 : i - 1, r = i == 255 ? 255 : i + 1;
  to[i] = (from[l] + from[i] + from[r]) / 3.0f;
}
