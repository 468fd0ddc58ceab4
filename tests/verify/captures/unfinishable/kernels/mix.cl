// A race needs mix(p) == T: sixteen rounds of multiply, xor-shift, add and rotate on 64 bits, each round's
// input xored into its output (as a hash's compression function does, so no round can be run backwards),
// T the image of one p. Finding a p is inverting a hash, which no solver does within a test's time limit
// on any machine, idle or loaded. The timeout test needs a query that cannot finish, never a kernel that is
// merely slow today (a 64-bit semiprime to factor, and the same rounds without the feed-forward, were
// solved in seconds).
#define ROUND(x, r) \
  y = (x); \
  x = ((x) ^ ((x) >> 31)) * 0xD6E8FEB86659FD93UL; \
  x = (x) + (r) * 0x9E3779B97F4A7C15UL; \
  x = (((x) << 27) | ((x) >> 37)) ^ y;
kernel void mix(global ulong *out, ulong p) {
  ulong x = p, y;
  ROUND(x, 0) ROUND(x, 1) ROUND(x, 2) ROUND(x, 3) ROUND(x, 4) ROUND(x, 5) ROUND(x, 6) ROUND(x, 7)
  ROUND(x, 8) ROUND(x, 9) ROUND(x, 10) ROUND(x, 11) ROUND(x, 12) ROUND(x, 13) ROUND(x, 14) ROUND(x, 15)
  if (x == 0x7b3230b72da47fadUL)
    out[0] = get_global_id(0);
}
