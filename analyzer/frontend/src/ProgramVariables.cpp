//===- ProgramVariables.cpp - What program-scope variables hold ------------===//

#include "clcapture/frontend/ProgramVariables.h"

#include <llvm/Analysis/ConstantFolding.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Metadata.h>
#include <set>
#include <vector>

namespace clcapture::frontend {

namespace {

constexpr const char *kUnwritten = "clcapture.unwritten";
constexpr unsigned kPrivateSpace = 0, kGlobalSpace = 1, kConstantSpace = 2; // SPIR address spaces

/// Whether any use of `variable` in the module may write it: a store to it, an atomic, a call given its
/// address (other than as a memory copy's source), or its address stored, compared away or turned into an
/// integer (it could be written through that later). Reads through GEPs, casts, selects and phis are not.
bool mayBeWritten(const llvm::GlobalVariable &variable) {
  std::vector<const llvm::Value *> work{&variable};
  std::set<const llvm::Value *> seen;
  while (!work.empty()) {
    const llvm::Value *v = work.back();
    work.pop_back();
    if (!seen.insert(v).second)
      continue;
    for (const llvm::Use &use : v->uses()) {
      const llvm::User *user = use.getUser();
      if (auto *ce = llvm::dyn_cast<llvm::ConstantExpr>(user)) {
        if (ce->getOpcode() == llvm::Instruction::PtrToInt ||
            (ce->getOpcode() != llvm::Instruction::GetElementPtr && !ce->isCast()))
          return true;
        work.push_back(ce);
      } else if (llvm::isa<llvm::LoadInst>(user)) {
        // a read (a pointer operand: nothing else of a load uses a value)
      } else if (llvm::isa<llvm::GetElementPtrInst>(user) || llvm::isa<llvm::BitCastInst>(user) ||
                 llvm::isa<llvm::AddrSpaceCastInst>(user) || llvm::isa<llvm::SelectInst>(user) ||
                 llvm::isa<llvm::PHINode>(user)) {
        work.push_back(user);
      } else if (llvm::isa<llvm::MemTransferInst>(user)) {
        if (use.getOperandNo() != 1) // not the source: the destination
          return true;
      } else if (auto *call = llvm::dyn_cast<llvm::CallBase>(user); call && call->isDebugOrPseudoInst()) {
        // a debug record names the variable, nothing more
      } else {
        // A store (of it or to it), an atomic, a call given its address, a comparison, ptrtoint, another
        // variable's initialiser (a write through that copy of the address would not be seen here).
        return true;
      }
    }
  }
  return false;
}

} // namespace

void prepareProgramVariables(llvm::Module &module) {
  for (llvm::GlobalVariable &variable : module.globals()) {
    unsigned space = variable.getAddressSpace();
    // Private ones are Clang's own: the initialiser of a private aggregate (`@constinit`), copied from.
    if (space != kPrivateSpace && space != kGlobalSpace && space != kConstantSpace)
      continue;
    if (variable.hasDefinitiveInitializer() && (space == kConstantSpace || !mayBeWritten(variable)))
      variable.setMetadata(kUnwritten, llvm::MDNode::get(module.getContext(), {}));
    variable.setConstant(false);
  }
}

bool isUnwrittenVariable(const llvm::GlobalVariable &variable) {
  return variable.getMetadata(kUnwritten) != nullptr && variable.hasDefinitiveInitializer();
}

llvm::PreservedAnalyses FoldUnwrittenLoadsPass::run(llvm::Function &function,
                                                    llvm::FunctionAnalysisManager &) {
  const llvm::DataLayout &layout = function.getParent()->getDataLayout();
  std::vector<std::pair<llvm::LoadInst *, llvm::Constant *>> folds;
  for (llvm::BasicBlock &block : function)
    for (llvm::Instruction &inst : block) {
      auto *load = llvm::dyn_cast<llvm::LoadInst>(&inst);
      if (!load || load->isVolatile() || load->isAtomic())
        continue;
      llvm::APInt offset(layout.getIndexTypeSizeInBits(load->getPointerOperandType()), 0);
      llvm::Value *base = load->getPointerOperand()->stripAndAccumulateConstantOffsets(
          layout, offset, /*AllowNonInbounds=*/true);
      auto *variable = llvm::dyn_cast<llvm::GlobalVariable>(base);
      if (!variable || !isUnwrittenVariable(*variable))
        continue;
      std::uint64_t size = layout.getTypeAllocSize(variable->getValueType()).getFixedValue();
      std::uint64_t bytes = layout.getTypeStoreSize(load->getType()).getFixedValue();
      if (offset.isNegative() || offset.getZExtValue() > size || bytes > size - offset.getZExtValue())
        continue; // past an end: the read stays, for the bounds check
      if (llvm::Constant *value = llvm::ConstantFoldLoadFromConst(variable->getInitializer(), load->getType(),
                                                                  offset.sextOrTrunc(64), layout))
        folds.emplace_back(load, value);
    }
  for (auto &[load, value] : folds) {
    load->replaceAllUsesWith(value);
    load->eraseFromParent();
  }
  if (folds.empty())
    return llvm::PreservedAnalyses::all();
  llvm::PreservedAnalyses preserved;
  preserved.preserveSet<llvm::CFGAnalyses>();
  return preserved;
}

} // namespace clcapture::frontend
