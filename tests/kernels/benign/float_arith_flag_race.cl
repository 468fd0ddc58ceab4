//unknown
//--global_size=128 --local_size=64 --size pos=512 --size flag=4
//possible race between .*:10:.* depending on a floating-point value
/* float_arith_flag_same_value, but each writer stores its own id: whether two work-items write depends on
   floating-point arithmetic the encoding does not model, and if they do, the values differ. Not benign,
   and not decided: unknown, naming the cause (never verified). */
kernel void float_arith_flag(global const float *pos, global int *flag) {
  float d = pos[get_global_id(0)];
  if (d * d > 0.25f)
    flag[0] = (int)get_global_id(0);
}
