//pass
//--global_size=128 --local_size=64 --size pos=512 --size flag=4 --arg limit=0x3E800000
//verified: a same-value race between .*:10:.* may occur, depending on a floating-point value
/* float_arith_flag_same_value with the threshold as a scalar (0.25f), so that tests/verify/parametric_test.py
   varies it: a parametric proof that names a possible same-value race must not stand for its launches (each
   launch alone may list it with a witness), so no launch carries a `parametric` record with a reason. */
kernel void float_arith_flag(global const float *pos, global int *flag, float limit) {
  float d = pos[get_global_id(0)];
  if (d * d > limit)
    flag[0] = 1;
}
