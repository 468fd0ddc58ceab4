//pass
//--global_size=64 --local_size=32
/* A fix: read only the field that is used, as a float, and write only .x. (Clang stores `dt[0].x = s` as
   a whole-vector load and store; only the written lane is an access, as in the source.) */
kernel void step(global float2 *dt, global float4 *pos) {
  float s = ((global float *)dt)[1];
  if (get_global_id(0) == 0)
    dt[0].x = s;
  pos[get_global_id(0)].x += s;
}
