//===- OutOfBoundsAllocas.h - Private arrays read or written past an end stay whole -*- C++ -*-===//
//
// SROA deletes an access to a private variable at a constant offset outside it (undefined behaviour, so
// "dead"): `int a[4]; a[4] = i;` lost its out-of-bounds write and came out `verified`. Before SROA runs, each
// variable (alloca) with such an access gets a use by the keep-alive call (KeepReads.h), which SROA and
// mem2reg take for an escape: the variable stays in memory with every access, and the encoder's bounds
// query sees the one past its end (docs/semantics.md row 37k). removeKeepReads removes the use again.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <llvm/IR/PassManager.h>

namespace clcapture::frontend {

class KeepOutOfBoundsAllocasPass : public llvm::PassInfoMixin<KeepOutOfBoundsAllocasPass> {
public:
  llvm::PreservedAnalyses run(llvm::Function &function, llvm::FunctionAnalysisManager &analyses);
};

} // namespace clcapture::frontend
