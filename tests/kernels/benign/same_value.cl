//pass
//--local_size=32 --global_size=32
//possible benign write-write race on flag
kernel void same_value(global int *flag) {
  flag[0] = 1;
}
