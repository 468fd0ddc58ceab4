//===- OutOfBoundsAllocas.cpp - Private arrays read or written past an end stay whole ---===//

#include "OutOfBoundsAllocas.h"

#include "clcapture/frontend/KeepReads.h"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Operator.h>
#include <set>
#include <utility>
#include <vector>

namespace clcapture::frontend {

namespace {

/// Whether [offset, offset + bytes) leaves [0, size).
bool outside(const llvm::APInt &offset, std::uint64_t bytes, std::uint64_t size) {
  return offset.isNegative() || offset.getZExtValue() > size || bytes > size - offset.getZExtValue();
}

/// Whether some access reaches `alloca` at a constant offset outside it, through GEPs with constant
/// indices, casts, selects and phis (the paths on which SROA knows the offset).
bool accessedOutside(llvm::AllocaInst &alloca, const llvm::DataLayout &layout) {
  auto allocated = alloca.getAllocationSizeInBits(layout);
  if (!allocated || allocated->isScalable())
    return false;
  std::uint64_t size = allocated->getFixedValue() / 8;
  unsigned bits = layout.getIndexTypeSizeInBits(alloca.getType());
  std::vector<std::pair<const llvm::Value *, llvm::APInt>> work{{&alloca, llvm::APInt(bits, 0)}};
  std::set<std::pair<const llvm::Value *, std::int64_t>> seen;
  while (!work.empty()) {
    auto [pointer, offset] = work.back();
    work.pop_back();
    if (!seen.insert({pointer, offset.getSExtValue()}).second)
      continue;
    if (seen.size() > 4096)
      return true; // too many places to follow: kept whole, which only costs precision
    for (const llvm::Use &use : pointer->uses()) {
      const llvm::User *user = use.getUser();
      auto accessOf = [&](llvm::Type *type) {
        return outside(offset, layout.getTypeStoreSize(type).getFixedValue(), size);
      };
      if (auto *gep = llvm::dyn_cast<llvm::GEPOperator>(user)) {
        llvm::APInt step(bits, 0);
        if (gep->getPointerOperand() == pointer && gep->accumulateConstantOffset(layout, step))
          work.emplace_back(gep, offset + step);
      } else if (llvm::isa<llvm::BitCastInst>(user) || llvm::isa<llvm::AddrSpaceCastInst>(user) ||
                 llvm::isa<llvm::SelectInst>(user) || llvm::isa<llvm::PHINode>(user)) {
        work.emplace_back(user, offset);
      } else if (auto *load = llvm::dyn_cast<llvm::LoadInst>(user)) {
        if (accessOf(load->getType()))
          return true;
      } else if (auto *store = llvm::dyn_cast<llvm::StoreInst>(user)) {
        if (use.getOperandNo() == store->getPointerOperandIndex() &&
            accessOf(store->getValueOperand()->getType()))
          return true;
      } else if (auto *rmw = llvm::dyn_cast<llvm::AtomicRMWInst>(user)) {
        if (accessOf(rmw->getType()))
          return true;
      } else if (auto *cmpxchg = llvm::dyn_cast<llvm::AtomicCmpXchgInst>(user)) {
        if (accessOf(cmpxchg->getCompareOperand()->getType()))
          return true;
      } else if (auto *intrinsic = llvm::dyn_cast<llvm::MemIntrinsic>(user)) {
        auto *length = llvm::dyn_cast<llvm::ConstantInt>(intrinsic->getLength());
        if (length && outside(offset, length->getZExtValue(), size))
          return true;
      }
    }
  }
  return false;
}

} // namespace

llvm::PreservedAnalyses KeepOutOfBoundsAllocasPass::run(llvm::Function &function,
                                                        llvm::FunctionAnalysisManager &) {
  const llvm::DataLayout &layout = function.getParent()->getDataLayout();
  std::vector<llvm::AllocaInst *> kept;
  for (llvm::Instruction &inst : function.getEntryBlock())
    if (auto *alloca = llvm::dyn_cast<llvm::AllocaInst>(&inst); alloca && accessedOutside(*alloca, layout))
      kept.push_back(alloca);
  for (llvm::AllocaInst *alloca : kept) {
    llvm::IRBuilder<> builder(alloca->getNextNode());
    builder.CreateCall(keepAliveFunction(*function.getParent()), {alloca});
  }
  if (kept.empty())
    return llvm::PreservedAnalyses::all();
  llvm::PreservedAnalyses preserved;
  preserved.preserveSet<llvm::CFGAnalyses>();
  return preserved;
}

} // namespace clcapture::frontend
