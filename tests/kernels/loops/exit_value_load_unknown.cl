//unknown
//--local_size=16 --global_size=64 --size out=1024 --data table=int:0,2,0,2,0,2,0,2 --checks=races,divergence
//a value leaving the loop
/* v leaves the loop with table[n - 1], one value for every work-item, so the stores are race-free. The
   encoding has each work-item at one arbitrary iteration of the loop, and ScalarEvolution cannot give the
   last iteration's value of a load: taken at the encoded iteration, work-items 0 (v = 2) and 1 (v = 0)
   would both store to out[2], a false race. The value is open instead, and the verdict unknown.
   Races only: n is open, and table[n - 1] past the 8 captured ints is a real out-of-bounds read (n = 15). */
kernel void k(global const int *table, global int *out, int n) {
  int v, j = 0;
  do {
    v = table[j];
  } while (++j < n);
  out[2 * get_global_id(0) + v] = get_global_id(0);
}
