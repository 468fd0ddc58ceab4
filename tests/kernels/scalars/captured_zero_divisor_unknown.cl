//unknown
//--local_size=32 --global_size=64 --arg d=0x00000000
//unknown: not analysed: the launch's values make the kernel's behaviour undefined: an integer division .* at kernels/.*:9:
/* With d = 0 the quotient is unspecified (OpenCL 1.2 §6.3), and LLVM folds `i / 0` to poison: the store to
   out[poison] became `unreachable` in the specialiser's clean-up and the launch, which races on every GPU
   that gives one quotient to all work-items, came out `verified` (the soundness fuzzer's fz4005_24). */
kernel void bucket(global int *out, uint d) {
  uint i = get_global_id(0);
  out[i / d] = (int)i;
}
