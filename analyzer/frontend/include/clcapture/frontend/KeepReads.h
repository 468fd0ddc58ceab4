//===- KeepReads.h - Reads whose value is unused stay reads -----*- C++ -*-===//
//
// A source read is an access even when its value is unused: `int x = a[i];` with x dead races with a write
// of a[i] like any other read (SPEC §5). LLVM deletes such loads (InstSimplify, dead-condition clean-up), and
// SROA, splitting `Pair p = in[i];` into one load per field, leaves the loads of unused fields dead. Until
// removeKeepReads, each read of non-private memory gets a use by a call to an opaque function that touches
// no memory the program can see, so nothing deletes it; calls that only read memory (vloadn is `pure`) too.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <llvm/IR/PassManager.h>

namespace clcapture::frontend {

/// Gives every read of non-private memory in the function that has no keep-alive use one. Idempotent.
class KeepReadsPass : public llvm::PassInfoMixin<KeepReadsPass> {
public:
  llvm::PreservedAnalyses run(llvm::Function &function, llvm::FunctionAnalysisManager &analyses);
};

/// The opaque function of the keep-alive uses, declared in `module` when it is not yet.
llvm::Function *keepAliveFunction(llvm::Module &module);

/// Removes every keep-alive use and the function they call.
void removeKeepReads(llvm::Module &module);

} // namespace clcapture::frontend
