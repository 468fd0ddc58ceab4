//xfail:NOT_ALL_VERIFIED
//--global_size=64 --local_size=32
//race on dt\[0\]
/* From OpenMM's integrateVerletPart2: every work-item reads the float2 dt[0] (both lanes) while
   work-item 0 updates its .x: the read of .x races with that write. */
kernel void step(global float2 *dt, global float4 *pos) {
  float2 s = dt[0];
  if (get_global_id(0) == 0)
    dt[0].x = s.y;
  pos[get_global_id(0)].x += s.x * s.y;
}
