//pass
//--local_size=8 --global_size=8 --size p=64
//possible benign write-write race on p
/* The same overlap with (7, 7): the overlapping element gets 7 from both, byte for byte — benign. */
kernel void overlap(global int *p) {
  vstore2((int2)(7, 7), 0, p + get_global_id(0));
}
