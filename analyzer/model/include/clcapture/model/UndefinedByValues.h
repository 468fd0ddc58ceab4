//===- UndefinedByValues.h - A launch whose values make the kernel's behaviour undefined -*- C++ -*-===//
//
// Once the captured scalars and NDRange sizes are folded in (LaunchSpecializer.h), an instruction whose
// operands are all constants may have no defined result: an integer division or remainder by zero (OpenCL
// 1.2 §6.3 leaves its result unspecified), INT_MIN / -1. LLVM folds such an instruction to `poison`, and the
// specialiser's clean-up then treats what uses it as undefined: a store to a poison address becomes
// `unreachable`, a branch on poison goes whichever way, and every access behind it disappears, so a launch
// that races (`out[i / d]` with d = 0: every work-item writes one slot) came out `verified` (the soundness
// fuzzer's fz4005_24). So before each clean-up the specialiser looks for such an instruction, folding
// constants forward as InstSimplify would, in the blocks that the constant branch conditions let the kernel
// reach (`if (d != 0) q = i / d;` is defined for d = 0), and the launch is not analysed: `unknown`, the
// instruction named.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <optional>
#include <string>

namespace llvm {
class Function;
}

namespace clcapture::model {

/// The first instruction of `kernel` that its constant operands leave without a defined result, as
/// "a division by zero at FILE:LINE:COL"; nothing when there is none.
std::optional<std::string> undefinedByValues(const llvm::Function &kernel);

} // namespace clcapture::model
