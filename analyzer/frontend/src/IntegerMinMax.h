//===- IntegerMinMax.h - OpenCL's integer min and max as LLVM's min/max intrinsics -*- C++ -*-===//
//
// OpenCL 1.2 §6.12.3: for integer types, min(x, y) returns y if y < x, otherwise x; max(x, y) returns y if
// x < y, otherwise x — exactly llvm.smin / llvm.smax for signed types and llvm.umin / llvm.umax for unsigned
// ones, lane by lane for vectors. A call of the builtin is opaque to ScalarEvolution, so a loop bound such as
// `xx < min(x + rad + 1, width)` (FFmpeg's avgblur) left the trip count unknown; the intrinsic is an SMin
// expression it folds. Only calls whose two operands have one integer type, named by their mangling, are
// replaced; the integer min/max of mixed vector and scalar operands, and every other builtin, stay calls.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <llvm/IR/PassManager.h>
#include <optional>
#include <string_view>

namespace clcapture::frontend {

/// For the mangled name of OpenCL's integer min or max with two operands of one type: whether it is max,
/// and whether the type is signed. None for anything else (float min, mixed operands, other functions).
struct IntegerMinMaxName {
  bool max = false;
  bool isSigned = false;
};
std::optional<IntegerMinMaxName> integerMinMax(std::string_view mangledName);

class IntegerMinMaxPass : public llvm::PassInfoMixin<IntegerMinMaxPass> {
public:
  llvm::PreservedAnalyses run(llvm::Function &function, llvm::FunctionAnalysisManager &analyses);
};

} // namespace clcapture::frontend
