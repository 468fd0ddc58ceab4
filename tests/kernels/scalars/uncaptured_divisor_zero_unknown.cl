//unknown
//--local_size=8 --global_size=8
//unknown: possible race .*depending on a division by zero at
/* Only d = 0 can make two work-items write: for d = 1 only work-item 5 has i / d == 5, for d >= 2 no
   i < 8 has. With d = 0 the quotient is unspecified (OpenCL 1.2 §6.3: "a divide by zero with integer types
   ... will result in an unspecified value"), so it may be 5 for every work-item: not `verified` (SMT-LIB's
   x / 0 = all ones would have proven it), and not a witness either. */
kernel void fifth(global int *out, uint d) {
  uint i = get_global_id(0);
  if (i / d == 5)
    out[0] = (int)i;
}
