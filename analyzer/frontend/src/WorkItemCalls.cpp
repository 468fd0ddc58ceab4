//===- WorkItemCalls.cpp - One call per work-item query, at the entry ----===//

#include "WorkItemCalls.h"

#include <array>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>
#include <map>
#include <vector>

namespace clcapture::frontend {

namespace {

// OpenCL 1.2 §6.12.1 and OpenCL 2.0 §6.13.1: the work-item functions.
constexpr std::array<std::string_view, 11> kWorkItemFunctions{
    "get_work_dim",         "get_global_size",    "get_global_id",
    "get_local_size",       "get_local_id",       "get_num_groups",
    "get_group_id",         "get_global_offset",  "get_enqueued_local_size",
    "get_global_linear_id", "get_local_linear_id"};

} // namespace

std::string_view workItemFunction(std::string_view mangledName) {
  // Itanium mangling of a free function: _Z <length> <identifier> <parameter types>.
  if (mangledName.substr(0, 2) != "_Z")
    return {};
  std::size_t digits = 2;
  std::size_t length = 0;
  while (digits < mangledName.size() && mangledName[digits] >= '0' && mangledName[digits] <= '9')
    length = length * 10 + static_cast<std::size_t>(mangledName[digits++] - '0');
  if (digits == 2 || digits + length > mangledName.size())
    return {};
  std::string_view name = mangledName.substr(digits, length);
  for (std::string_view known : kWorkItemFunctions)
    if (name == known)
      return known;
  return {};
}

llvm::PreservedAnalyses WorkItemCallsPass::run(llvm::Function &function, llvm::FunctionAnalysisManager &) {
  std::vector<llvm::CallInst *> calls;
  for (llvm::BasicBlock &block : function)
    for (llvm::Instruction &inst : block)
      if (auto *call = llvm::dyn_cast<llvm::CallInst>(&inst)) {
        llvm::Function *callee = call->getCalledFunction();
        if (!callee || !callee->isDeclaration() || workItemFunction(callee->getName()).empty())
          continue;
        bool constantArguments = true;
        for (const llvm::Use &argument : call->args())
          constantArguments = constantArguments && llvm::isa<llvm::ConstantInt>(argument.get());
        if (constantArguments)
          calls.push_back(call);
      }
  if (calls.empty())
    return llvm::PreservedAnalyses::all();

  // The first call of each (function, arguments) moves to the entry, in the order found; the others use it.
  llvm::Instruction *insertBefore = &*function.getEntryBlock().getFirstInsertionPt();
  std::map<std::pair<llvm::Function *, std::vector<std::uint64_t>>, llvm::CallInst *> kept;
  for (llvm::CallInst *call : calls) {
    std::vector<std::uint64_t> arguments;
    for (const llvm::Use &argument : call->args())
      arguments.push_back(llvm::cast<llvm::ConstantInt>(argument.get())->getZExtValue());
    auto [it, inserted] = kept.try_emplace({call->getCalledFunction(), arguments}, call);
    if (inserted) {
      call->moveBefore(insertBefore);
      continue;
    }
    call->replaceAllUsesWith(it->second);
    call->eraseFromParent();
  }
  llvm::PreservedAnalyses preserved;
  preserved.preserveSet<llvm::CFGAnalyses>();
  return preserved;
}

} // namespace clcapture::frontend
