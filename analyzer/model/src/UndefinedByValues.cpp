//===- UndefinedByValues.cpp - A launch whose values make behaviour undefined -===//

#include "clcapture/model/UndefinedByValues.h"

#include <llvm/ADT/PostOrderIterator.h>
#include <llvm/Analysis/InstructionSimplify.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <map>
#include <set>

namespace clcapture::model {

namespace {

std::string where(const llvm::Instruction &inst) {
  const llvm::DebugLoc &loc = inst.getDebugLoc();
  if (!loc)
    return "in " + inst.getFunction()->getName().str();
  return "at " + loc->getFilename().str() + ":" + std::to_string(loc.getLine()) + ":" +
         std::to_string(loc.getCol());
}

std::string what(const llvm::Instruction &inst) {
  switch (inst.getOpcode()) {
  case llvm::Instruction::UDiv:
  case llvm::Instruction::SDiv:
    return "an integer division whose result is undefined for these values (by zero, or INT_MIN by -1)";
  case llvm::Instruction::URem:
  case llvm::Instruction::SRem:
    return "an integer remainder whose result is undefined for these values (by zero, or INT_MIN by -1)";
  default:
    return std::string("an operation (") + inst.getOpcodeName() +
           ") whose result is undefined for these values";
  }
}

/// Whether folding `inst` may be asked of LLVM: pure operations on values, not memory, calls or phis.
bool foldable(const llvm::Instruction &inst) {
  return inst.isBinaryOp() || inst.isCast() || llvm::isa<llvm::CmpInst>(inst) ||
         llvm::isa<llvm::SelectInst>(inst) || llvm::isa<llvm::GetElementPtrInst>(inst) ||
         llvm::isa<llvm::ExtractElementInst>(inst);
}

/// A load, store or atomic whose pointer the launch's values make NULL in an address space where NULL
/// points nowhere (private memory, address space 0): LLVM's clean-up deletes such an access and everything
/// after it as unreachable, so the launch's behaviour there is undefined rather than analysable.
std::optional<std::string> nullAccess(const llvm::Instruction &inst,
                                      const std::map<const llvm::Value *, llvm::Value *> &known) {
  const llvm::Value *pointer = llvm::getLoadStorePointerOperand(&inst);
  if (auto *rmw = llvm::dyn_cast<llvm::AtomicRMWInst>(&inst))
    pointer = rmw->getPointerOperand();
  if (auto *cmpxchg = llvm::dyn_cast<llvm::AtomicCmpXchgInst>(&inst))
    pointer = cmpxchg->getPointerOperand();
  if (!pointer || llvm::isa<llvm::ConstantPointerNull>(pointer)) // a NULL the program had, not the launch's
    return std::nullopt;
  auto it = known.find(pointer);
  if (it == known.end() || !llvm::isa<llvm::ConstantPointerNull>(it->second) ||
      llvm::NullPointerIsDefined(inst.getFunction(), pointer->getType()->getPointerAddressSpace()))
    return std::nullopt;
  return std::string(llvm::isa<llvm::LoadInst>(inst) ? "a read" : "a write") + " through a null pointer " +
         where(inst);
}

} // namespace

std::optional<std::string> undefinedByValues(const llvm::Function &kernel) {
  const llvm::SimplifyQuery query(kernel.getParent()->getDataLayout());
  std::map<const llvm::Value *, llvm::Value *> known; // instruction -> the constant it folds to
  // Only blocks the constants let the kernel reach: `if (d != 0) q = i / d;` is defined for d = 0.
  std::set<const llvm::BasicBlock *> reachable{&kernel.getEntryBlock()};
  for (const llvm::BasicBlock *block : llvm::ReversePostOrderTraversal<const llvm::Function *>(&kernel)) {
    if (!reachable.count(block))
      continue;
    for (const llvm::Instruction &inst : *block) {
      if (auto access = nullAccess(inst, known))
        return *access;
      if (!foldable(inst))
        continue;
      llvm::SmallVector<llvm::Value *, 4> operands;
      bool programUndef = false; // an undef the program had is not the launch's doing
      for (const llvm::Use &use : inst.operands()) {
        auto it = known.find(use.get());
        llvm::Value *v = it == known.end() ? use.get() : it->second;
        programUndef |= llvm::isa<llvm::UndefValue>(v);
        operands.push_back(v);
      }
      if (programUndef)
        continue;
      // As InstSimplify folds it (`udiv X, 0` is poison whatever X is), without changing the kernel.
      llvm::Value *folded =
          llvm::simplifyInstructionWithOperands(const_cast<llvm::Instruction *>(&inst), operands, query);
      if (!folded || !llvm::isa<llvm::Constant>(folded))
        continue;
      if (llvm::isa<llvm::UndefValue>(folded)) // poison, or undef
        return what(inst) + " " + where(inst);
      known.emplace(&inst, folded);
    }
    const llvm::Instruction *end = block->getTerminator();
    const auto *branch = llvm::dyn_cast<llvm::BranchInst>(end);
    const llvm::ConstantInt *condition = nullptr;
    if (branch && branch->isConditional()) {
      auto it = known.find(branch->getCondition());
      condition = llvm::dyn_cast<llvm::ConstantInt>(it == known.end() ? branch->getCondition() : it->second);
    }
    if (condition)
      reachable.insert(branch->getSuccessor(condition->isZero() ? 1 : 0));
    else
      for (const llvm::BasicBlock *next : llvm::successors(block))
        reachable.insert(next);
  }
  return std::nullopt;
}

} // namespace clcapture::model
