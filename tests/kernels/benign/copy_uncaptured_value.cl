//pass
//--local_size=64 --global_size=128 --size B=4
//warning: possible benign write-write race on B\[0\]
/* Every work-item copies A[0] to B[0]: A has no captured bytes, but all read one memory nothing writes,
   so all store one value — a benign race (a warning), not a defect. */
kernel void copy(global const int *A, global int *B) {
  B[0] = A[0];
}
