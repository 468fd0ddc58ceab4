//unknown
//--global_size=128 --local_size=64 --size pos=512 --size flag=4 --strict
//a same-value race between .*:9:.* may occur.*--strict counts benign races
/* float_arith_flag_same_value under --strict, where a benign race is an error: whether it happens is not
   decided, so neither is the verdict. */
kernel void float_arith_flag(global const float *pos, global int *flag) {
  float d = pos[get_global_id(0)];
  if (d * d > 0.25f)
    flag[0] = 1;
}
