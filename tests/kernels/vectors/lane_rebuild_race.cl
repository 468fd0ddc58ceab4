//xfail:NOT_ALL_VERIFIED
//--global_size=64 --local_size=32 --flags=-cl-opt-disable
//write-write race on v\[
/* The even work-item rebuilds its whole int2 from its own lane x and a new lane y; the odd one writes lane x:
   both write lane x of one element. An optimiser deletes the even one's write-back of the lane x it just read
   (LLVM at -O1 and above makes it a store of lane y alone, and the race is gone from the optimised program:
   docs/optimisation-levels.md); -cl-opt-disable asks the driver for the program as written, and the race is
   reported at CLCAPTURE_VERIFY_OPT_LEVEL=2 too. */
kernel void rebuild(global int2 *v) {
  size_t i = get_global_id(0);
  if (i % 2 == 0)
    v[i / 2] = (int2)(v[i / 2].x, (int)i);
  else
    v[i / 2].x = (int)i;
}
