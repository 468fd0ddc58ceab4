//pass
//--global_size=64 --local_size=32 --size in=1280 --size out=1280
/* Structs copied global → local, a barrier, then each work-item copies its neighbour's local struct out
   (memcpy global → local, local → global). */
typedef struct {
  int key;
  int digits[4];
} item;

kernel void rotate(global const item *in, global item *out) {
  local item tmp[32];
  size_t l = get_local_id(0);
  tmp[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tmp[(l + 1) % 32];
}
