//===- CfgCleanup.cpp - CFG clean-up that never moves an instruction ------===//

#include "clcapture/frontend/CfgCleanup.h"

#include <llvm/IR/BasicBlock.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>
#include <llvm/Transforms/Utils/Local.h>

namespace clcapture::frontend {

namespace {

/// A block holding nothing but PHIs, debug intrinsics and an unconditional branch to another block.
bool isForwardingBlock(llvm::BasicBlock &block) {
  // A branch is a terminator: when it is the first instruction that is neither a PHI nor debug information,
  // it is the only other one.
  const auto *branch = llvm::dyn_cast_or_null<llvm::BranchInst>(block.getFirstNonPHIOrDbg());
  return branch && branch->isUnconditional() && branch->getSuccessor(0) != &block;
}

bool cleanupOnce(llvm::Function &function) {
  bool changed = false;
  // `if (0)`, `switch (N)` with N a -D macro: a branch on a constant becomes unconditional; the condition,
  // when nothing else uses it, goes too (reads are kept alive by the Normalizer, so only arithmetic goes).
  for (llvm::BasicBlock &block : function)
    changed |= llvm::ConstantFoldTerminator(&block, /*DeleteDeadConditions=*/true);
  // Code no path reaches performs no access.
  changed |= llvm::removeUnreachableBlocks(function);
  for (llvm::BasicBlock &block : llvm::make_early_inc_range(function)) {
    if (&block == &function.getEntryBlock())
      continue;
    if (llvm::MergeBlockIntoPredecessor(&block)) {
      changed = true;
      continue;
    }
    if (isForwardingBlock(block) && llvm::TryToSimplifyUncondBranchFromEmptyBlock(&block)) {
      changed = true;
      continue;
    }
    changed |= llvm::EliminateDuplicatePHINodes(&block);
  }
  return changed;
}

} // namespace

llvm::PreservedAnalyses CfgCleanupPass::run(llvm::Function &function, llvm::FunctionAnalysisManager &) {
  bool changed = false;
  while (cleanupOnce(function))
    changed = true;
  return changed ? llvm::PreservedAnalyses::none() : llvm::PreservedAnalyses::all();
}

} // namespace clcapture::frontend
