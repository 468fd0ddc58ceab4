//===- IntegerMinMax.cpp - OpenCL's integer min and max as LLVM's min/max intrinsics -===//

#include "IntegerMinMax.h"

#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Intrinsics.h>
#include <string>
#include <vector>

namespace clcapture::frontend {

std::optional<IntegerMinMaxName> integerMinMax(std::string_view name) {
  IntegerMinMaxName out;
  if (name.substr(0, 6) == "_Z3max")
    out.max = true;
  else if (name.substr(0, 6) != "_Z3min")
    return std::nullopt;
  std::string_view params = name.substr(6);
  // Itanium mangling of OpenCL C's integer types: char is signed (OpenCL 1.2 §6.1.1).
  auto signedness = [](char c) -> std::optional<bool> {
    switch (c) {
    case 'c':
    case 'a':
    case 's':
    case 'i':
    case 'l':
      return true;
    case 'h':
    case 't':
    case 'j':
    case 'm':
      return false;
    default:
      return std::nullopt;
    }
  };
  std::optional<bool> isSigned;
  if (params.size() == 2 && params[0] == params[1]) { // scalar: "ii"
    isSigned = signedness(params[0]);
  } else if (params.substr(0, 2) == "Dv" && params.size() >= 7) { // vector: "Dv4_iS_"
    std::size_t underscore = params.find('_');
    if (underscore == std::string_view::npos || underscore + 4 != params.size() ||
        params.substr(underscore + 2) != "S_")
      return std::nullopt;
    for (char digit : params.substr(2, underscore - 2))
      if (digit < '0' || digit > '9')
        return std::nullopt;
    isSigned = signedness(params[underscore + 1]);
  }
  if (!isSigned)
    return std::nullopt;
  out.isSigned = *isSigned;
  return out;
}

llvm::PreservedAnalyses IntegerMinMaxPass::run(llvm::Function &function, llvm::FunctionAnalysisManager &) {
  std::vector<llvm::CallInst *> calls;
  for (llvm::Instruction &inst : llvm::instructions(function))
    if (auto *call = llvm::dyn_cast<llvm::CallInst>(&inst))
      if (llvm::Function *callee = call->getCalledFunction();
          callee && callee->isDeclaration() && call->arg_size() == 2 && integerMinMax(callee->getName()) &&
          call->getType()->isIntOrIntVectorTy() && call->getArgOperand(0)->getType() == call->getType() &&
          call->getArgOperand(1)->getType() == call->getType())
        calls.push_back(call);
  for (llvm::CallInst *call : calls) {
    IntegerMinMaxName which = *integerMinMax(call->getCalledFunction()->getName());
    llvm::Intrinsic::ID id = which.max ? (which.isSigned ? llvm::Intrinsic::smax : llvm::Intrinsic::umax)
                                       : (which.isSigned ? llvm::Intrinsic::smin : llvm::Intrinsic::umin);
    llvm::Function *intrinsic = llvm::Intrinsic::getDeclaration(function.getParent(), id, {call->getType()});
    auto *replacement = llvm::CallInst::Create(intrinsic, {call->getArgOperand(0), call->getArgOperand(1)},
                                               call->getName(), call);
    replacement->setDebugLoc(call->getDebugLoc());
    call->replaceAllUsesWith(replacement);
    call->eraseFromParent();
  }
  return calls.empty() ? llvm::PreservedAnalyses::all() : llvm::PreservedAnalyses::none();
}

} // namespace clcapture::frontend
