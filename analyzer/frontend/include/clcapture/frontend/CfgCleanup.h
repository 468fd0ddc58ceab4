//===- CfgCleanup.h - CFG clean-up that never moves an instruction -*- C++ -*-===//
//
// The part of SimplifyCFG the model needs, and nothing else: branches on constants folded, unreachable blocks
// removed, a block merged into its only predecessor, empty forwarding blocks removed, duplicate PHIs merged.
// LLVM 16's SimplifyCFGPass cannot be restricted to that: it always speculates cheap blocks into their
// predecessor (SpeculativelyExecuteBB, including a store when an earlier one writes the same address) and
// folds if-then-else PHIs into selects by speculating loads from dereferenceable pointers such as `local`
// arrays (FoldTwoEntryPHINode), and merges conditional stores: each puts an access on a path without it.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <llvm/IR/PassManager.h>

namespace clcapture::frontend {

class CfgCleanupPass : public llvm::PassInfoMixin<CfgCleanupPass> {
public:
  llvm::PreservedAnalyses run(llvm::Function &function, llvm::FunctionAnalysisManager &analyses);
};

} // namespace clcapture::frontend
