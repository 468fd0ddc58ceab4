//pass
//--global_size=32,32 --local_size=8,8
/* Coordinates as an int2, offset by a vector constant and scaled lane by lane: exact vector lanes. */
kernel void shift(global int *out) {
  int2 p = (int2)(get_global_id(0), get_global_id(1));
  int2 q = p * (int2)(1, 32) + (int2)(0, 0);
  out[q.x + q.y] = p.x ^ p.y;
}
