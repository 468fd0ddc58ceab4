//pass
//--local_size=64 --global_size=64
//warning: possible benign write-write race on A\[0\] with start = [0-9]+ and end = [0-9]+
/* GPUVerify's benign_race_tests/pass/writeinloop: every writer stores 42, whatever the uncaptured bounds
   are (a benign race, listed with a witness, not a defect). */
kernel void loop(local int *A, int start, int end) {
  for (unsigned i = start; i < end; ++i)
    A[0] = 42;
}
