//xfail:NOT_ALL_VERIFIED
//--local_size=16 --global_size=16
//race on tile\[
kernel void static_array(global int *out) {
  local int tile[16];
  size_t l = get_local_id(0);
  tile[l] = (int)l * 2;
  out[l] = tile[15 - l];
}
