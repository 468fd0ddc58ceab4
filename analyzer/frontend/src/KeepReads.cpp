//===- KeepReads.cpp - Reads whose value is unused stay reads ------------===//

#include "clcapture/frontend/KeepReads.h"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <vector>

namespace clcapture::frontend {

namespace {

constexpr const char *kKeepName = "clcapture.keep";
constexpr unsigned kPrivate = 0; // SPIR address space of private memory

/// A read that LLVM may delete when nothing uses it: a load of non-private memory, or a call that only reads
/// memory.
bool isDroppableRead(const llvm::Instruction &inst) {
  if (const auto *load = llvm::dyn_cast<llvm::LoadInst>(&inst))
    return load->getPointerAddressSpace() != kPrivate;
  if (const auto *call = llvm::dyn_cast<llvm::CallBase>(&inst))
    return !call->getType()->isVoidTy() && call->onlyReadsMemory() && !call->doesNotAccessMemory() &&
           !llvm::isa<llvm::IntrinsicInst>(call);
  return false;
}

} // namespace

llvm::Function *keepAliveFunction(llvm::Module &module) {
  if (llvm::Function *existing = module.getFunction(kKeepName))
    return existing;
  llvm::LLVMContext &context = module.getContext();
  llvm::FunctionType *type = llvm::FunctionType::get(llvm::Type::getVoidTy(context), /*isVarArg=*/true);
  llvm::Function *keep = llvm::Function::Create(type, llvm::GlobalValue::ExternalLinkage, kKeepName, module);
  keep->setOnlyAccessesInaccessibleMemory();
  keep->setDoesNotThrow();
  keep->setWillReturn();
  return keep;
}

llvm::PreservedAnalyses KeepReadsPass::run(llvm::Function &function, llvm::FunctionAnalysisManager &) {
  std::vector<llvm::Instruction *> reads;
  for (llvm::BasicBlock &block : function)
    for (llvm::Instruction &inst : block)
      if (isDroppableRead(inst))
        reads.push_back(&inst);
  llvm::Function *keep = nullptr;
  for (llvm::Instruction *read : reads) {
    bool kept = false;
    for (const llvm::User *user : read->users())
      if (const auto *call = llvm::dyn_cast<llvm::CallInst>(user))
        kept = kept || (call->getCalledFunction() && call->getCalledFunction()->getName() == kKeepName);
    if (kept)
      continue;
    if (!keep)
      keep = keepAliveFunction(*function.getParent());
    llvm::IRBuilder<> builder(read->getNextNode());
    llvm::CallInst *use = builder.CreateCall(keep, {read});
    use->setDebugLoc(read->getDebugLoc());
  }
  if (!keep)
    return llvm::PreservedAnalyses::all();
  llvm::PreservedAnalyses preserved;
  preserved.preserveSet<llvm::CFGAnalyses>();
  return preserved;
}

void removeKeepReads(llvm::Module &module) {
  llvm::Function *keep = module.getFunction(kKeepName);
  if (!keep)
    return;
  for (llvm::User *user : llvm::make_early_inc_range(keep->users()))
    llvm::cast<llvm::Instruction>(user)->eraseFromParent();
  keep->eraseFromParent();
}

} // namespace clcapture::frontend
