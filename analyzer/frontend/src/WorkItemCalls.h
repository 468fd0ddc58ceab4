//===- WorkItemCalls.h - One call per work-item query, at the entry -*- C++ -*-===//
//
// OpenCL 1.2 §6.12.1: get_global_id(d), get_local_size(d), … return the same value wherever a work-item calls
// them, touch no memory and are defined for every d (0 or 1 beyond get_work_dim()). So each call with
// constant arguments can move to the function's entry, and equal calls can become one. Then a grid-stride
// step `i += get_global_size(0)` is loop-invariant and ScalarEvolution sees `i` as an add-recurrence, and the
// model reads one SSA value per query. The calls stay calls to the builtin declarations.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <llvm/IR/PassManager.h>
#include <string_view>

namespace clcapture::frontend {

/// The unmangled name of an OpenCL work-item function when `mangledName` is one (`_Z13get_global_idj` →
/// `get_global_id`), else empty.
std::string_view workItemFunction(std::string_view mangledName);

class WorkItemCallsPass : public llvm::PassInfoMixin<WorkItemCallsPass> {
public:
  llvm::PreservedAnalyses run(llvm::Function &function, llvm::FunctionAnalysisManager &analyses);
};

} // namespace clcapture::frontend
